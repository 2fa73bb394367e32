import type { ExampleHook } from '../example.js';

/** A route through one next hop (valid on its own); the update moves it to another next hop. */
export const example: ExampleHook = () => ({
  attributes: { source: '2001:db8:1::/48', gateway: '2001:db8::1' },
  update: { gateway: '2001:db8::fe' },
});
