import type { ExampleHook } from '../example.js';

/** One network and one address (valid on its own); the update adds a range. */
export const example: ExampleHook = (name) => ({
  attributes: { ips: ['192.0.2.0/24', '198.51.100.7'] },
  update: { ips: ['192.0.2.0/24', '198.51.100.7', `203.0.113.0/${name.length % 8 + 24}`] },
});
