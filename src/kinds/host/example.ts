import type { ExampleHook } from '../example.js';

/** A host entry for one back end (valid on its own); the update moves it to another address. */
export const example: ExampleHook = (name) => ({
  attributes: { hostName: `${name}.internal`, ipAddress: '192.0.2.10' },
  update: { ipAddress: '192.0.2.11' },
});
