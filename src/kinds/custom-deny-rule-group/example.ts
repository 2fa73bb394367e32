import type { ExampleHook } from '../example.js';

/** A custom deny rule group (valid on its own, empty); its name is its only attribute. */
export const example: ExampleHook = () => ({ attributes: {}, update: {} });
