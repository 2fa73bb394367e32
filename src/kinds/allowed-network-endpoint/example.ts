import type { ExampleHook } from '../example.js';

/** An endpoint the gateway may reach (valid on its own); the update narrows it to one port. */
export const example: ExampleHook = () => ({
  attributes: { address: '198.51.100.0/24' },
  update: { port: 8443 },
});
