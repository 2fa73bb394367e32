import type { ExampleHook } from '../example.js';

/** A custom deny rule on a path pattern (valid on its own); the update makes it log only. */
export const example: ExampleHook = (name) => ({
  attributes: { logOnly: false, restrictions: { pathPattern: { enabled: true, name: `${name}-path`, pattern: '^/admin/' } } },
  update: { logOnly: true },
});
