import type { ExampleHook } from '../example.js';

/** An anomaly shield traffic matcher (valid on its own, unlinked); its name is its only attribute. */
export const example: ExampleHook = () => ({ attributes: {}, update: {} });
