/**
 * The one import point of the pure model modules for the server's own modules (signatures
 * fixed in `api.ts`). Re-exports the real modules once they exist.
 */
export { checkAttributes, mergeAttributes, readableAttributes } from './standins.js';
export { newObjectAttributes, fillItemDefaults } from './standins.js';
export { FilterSyntaxError, parseFilters, matchesFilter } from './standins.js';
export type { Filter } from './standins.js';
export { validatorMessages } from './standins.js';
