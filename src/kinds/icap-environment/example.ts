import type { ExampleHook } from '../example.js';

/** An ICAP environment that blocks while its server is down (valid on its own); the update lets traffic pass. */
export const example: ExampleHook = () => ({
  attributes: { failOpen: false },
  update: { failOpen: true },
});
