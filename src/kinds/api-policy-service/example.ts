import type { ExampleHook } from '../example.js';

/** A policy service with its shared secret (valid on its own); the update moves its endpoint. */
export const example: ExampleHook = (name) => ({
  attributes: { endpoint: '/auth-api-policy-service/rest/resolve-tech-client', sharedSecret: `shared-${name}-secret` },
  update: { endpoint: `/policy/${name}/resolve` },
});
