import type { ExampleHook } from '../example.js';

/**
 * One back-end host with a host name (a group without one is a validator ERROR,
 * BACKEND_GROUP_WITHOUT_HOSTS); the update moves it to another port (the list is replaced
 * whole).
 */
export const example: ExampleHook = (name) => ({
  attributes: { backendHosts: [{ protocol: 'HTTP', hostName: `${name}.example.internal`, port: 8080 }] },
  update: { backendHosts: [{ protocol: 'HTTP', hostName: `${name}.example.internal`, port: 8081 }] },
});
