import type { ExampleHook } from '../example.js';

/** A GraphQL document: like an OpenAPI document, nothing to update but its content. */
export const example: ExampleHook = () => ({
  attributes: {},
  update: {},
});
