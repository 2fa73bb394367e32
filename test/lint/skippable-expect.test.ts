/**
 * The ESLint rule of eslint.config.js that refuses assertions a passing test can skip
 * (`SKIPPABLE_EXPECT`): read from the configuration ESLint computes for a test file, then
 * run on snippets that must and must not be refused.
 */
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The lint messages of `code` under the repository's `no-restricted-syntax` setting for test files. */
let lint: (code: string) => Promise<string[]>;

beforeAll(async () => {
  const config = (await new ESLint({ cwd: REPO }).calculateConfigForFile('test/any.test.ts')) as Linter.Config;
  const setting = config.rules?.['no-restricted-syntax'];
  expect(Array.isArray(setting), 'test files have no-restricted-syntax').toBe(true);
  const linter = new ESLint({
    cwd: REPO,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': setting } }],
  });
  lint = async (code) => {
    const [result] = await linter.lintText(code, { filePath: 'test/snippet.test.ts' });
    return (result?.messages ?? []).map((m) => `${m.line}: ${m.message}`);
  };
});

/** A test file around `body`. */
const test = (body: string): string => `import { existsSync } from 'node:fs';\nit('t', async () => {\n${body}\n});\n`;

describe('assertions that a passing test can skip', () => {
  it.each([
    ['an expect in a catch', 'try { f(); } catch (error) { expect(error).toBeInstanceOf(E); }', /inside a catch/],
    ['an expect nested in a function in a catch', 'try { f(); } catch (error) { [error].forEach((e) => expect(e).toBeDefined()); }', /inside a catch/],
    ['an expect in a .catch callback', 'await p.catch((error) => expect(error.message).not.toContain("x"));', /\.catch callback/],
    ['an expect under if (existsSync(…))', 'if (existsSync(out)) expect(read(out)).toBe("x");', /whether a file exists/],
    ['an expect… helper under if (existsSync(…))', 'if (existsSync(out)) { expectNoSecret(read(out)); }', /whether a file exists/],
    ['a return under if (!existsSync(…))', 'if (!existsSync(schema)) return;\nexpect(validate(schema)).toEqual([]);', /whether a file exists/],
    ['a test skipped when a tool is missing', "it.skipIf(!existsSync('/usr/bin/script'))('on a terminal', () => { expect(run()).toBe(0); });", /runs only when a file exists/],
    ['a test run only when a file exists', "it.runIf(existsSync(tool))('with the tool', () => { expect(run()).toBe(0); });", /runs only when a file exists/],
    ['a suite skipped without an environment variable', "describe.skipIf(process.env.SCRIPT === undefined)('the script', () => { it('x', () => expect(run()).toBe(0)); });", /environment variable/],
  ])('refuses %s', async (_what, body, message) => {
    const messages = await lint(test(body));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(message);
  });

  it('refuses an expect in a catch when only another test counts its assertions', async () => {
    const file = `describe('d', () => {\n${test('expect.assertions(1);\nexpect(1).toBe(1);')}${test('try { f(); } catch (error) { expect(error).toBeDefined(); }')}});\n`;
    expect(await lint(file)).toEqual([expect.stringMatching(/^9: An expect inside a catch/)]);
  });

  it.each([
    ['toThrow', 'expect(() => f()).toThrow(E);'],
    ['rejects', 'await expect(p).rejects.toThrow(/x/);'],
    ['the error taken out of the catch', 'const error = thrownBy(() => f(), E);\nexpect(error.counts).toEqual([]);'],
    ['a catch that returns the error', 'const error = await p.catch((e: unknown) => e);\nexpect(error).toBeInstanceOf(E);'],
    ['expect.assertions at the start of the test', 'expect.assertions(1);\ntry { f(); } catch (error) { expect(error).toBeInstanceOf(E); }'],
    ['expect.hasAssertions at the start of the test', 'expect.hasAssertions();\nawait p.catch((error) => expect(error).toBeDefined());'],
    ['an assertion on whether the file exists', 'expect(existsSync(out)).toBe(true);\nexpect(read(out)).toBe("x");'],
    ['an expect under another condition', 'if (kind === "one") expect(links).toHaveLength(1);'],
    ['a test run for the kinds it applies to', "it.runIf(hasUpdatableAttributes(type))('update', () => { expect(patch(type)).toBe(200); });"],
  ])('accepts %s', async (_what, body) => {
    expect(await lint(test(body))).toEqual([]);
  });
});
