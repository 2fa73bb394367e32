import type { ExampleHook } from '../example.js';

/** A key set fetched from its issuer (valid on its own); the update moves its URL. */
export const example: ExampleHook = (name) => ({
  attributes: { issuer: `https://${name}.example.com`, url: `https://${name}.example.com/jwks` },
  update: { url: `https://${name}.example.com/keys/jwks` },
});
