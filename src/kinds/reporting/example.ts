import type { ExampleHook } from '../example.js';

/** The singleton `reporting`: no attribute name is known, so there is nothing to declare or update. */
export const example: ExampleHook = () => ({
  attributes: {},
  update: {},
});
