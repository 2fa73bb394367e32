import type { ExampleHook } from '../example.js';

/** A cluster node (valid on its own); its host name is its identity and only attribute, so there is no update. */
export const example: ExampleHook = (name) => ({ attributes: { hostName: `${name}.cluster.internal` }, update: {} });
