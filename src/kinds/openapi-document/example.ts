import type { ExampleHook } from '../example.js';

/**
 * An OpenAPI document: its only attribute is its name, the identity (the specification is
 * its content sub-resource), so there is no attribute to update.
 */
export const example: ExampleHook = () => ({
  attributes: {},
  update: {},
});
