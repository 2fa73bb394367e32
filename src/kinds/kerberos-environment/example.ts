import type { ExampleHook } from '../example.js';

/**
 * A Kerberos environment: its only known attribute is its name, the identity, so there is
 * no attribute to update.
 */
export const example: ExampleHook = () => ({
  attributes: {},
  update: {},
});
