/**
 * The error a call throws, for tests that look into it (diagnostics, counts, message).
 * It asserts that the call throws an error of the given class, so the checks that follow
 * run on every pass: never wrap them in a `catch` (ESLint refuses an `expect` inside a
 * `catch` in test/, see eslint.config.js).
 */
import { expect } from 'vitest';

/**
 * Calls `fn` and returns what it threw.
 * @param type the class the error must be an instance of (any `Error` when not given)
 * @returns the thrown error, typed as `type`
 * @throws an assertion error when `fn` returns, or throws anything else
 */
export function thrownBy<E extends Error = Error>(fn: () => unknown, type?: abstract new (...args: never[]) => E): E {
  let caught: unknown;
  let threw = false;
  try {
    fn();
  } catch (error) {
    threw = true;
    caught = error;
  }
  expect(threw, 'the call was expected to throw').toBe(true);
  expect(caught).toBeInstanceOf(type ?? Error);
  return caught as E;
}

