import type { ExampleHook } from '../example.js';

/** The singleton `log`: one attribute, changed once by the update step. */
export const example: ExampleHook = () => ({
  attributes: { level: 'DEBUG' },
  update: { level: 'WARN' },
});
