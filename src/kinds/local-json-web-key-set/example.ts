import type { ExampleHook } from '../example.js';

/** A stored key set for one issuer (valid on its own); the update changes the issuer. */
export const example: ExampleHook = (name) => ({
  attributes: { issuer: `https://${name}.example.com` },
  update: { issuer: `https://login.${name}.example.com` },
});
