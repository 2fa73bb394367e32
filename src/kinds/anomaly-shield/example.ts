import type { ExampleHook } from '../example.js';

/** The singleton `anomaly-shield`: one attribute, changed once by the update step. */
export const example: ExampleHook = () => ({
  attributes: { enabled: true },
  update: { enabled: false },
});
