import type { ExampleHook } from '../example.js';

/** A route through one next hop (valid on its own); the update moves it to another next hop. */
export const example: ExampleHook = () => ({
  attributes: { destination: '203.0.113.0/24', gateway: '192.0.2.1' },
  update: { gateway: '192.0.2.254' },
});
