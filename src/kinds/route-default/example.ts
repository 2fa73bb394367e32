import type { ExampleHook } from '../example.js';

/** The singleton `route-default`: one attribute, changed once by the update step. */
export const example: ExampleHook = () => ({
  attributes: { ipv4: { gateway: '192.0.2.1' } },
  update: { ipv4: { gateway: '192.0.2.254' } },
});
