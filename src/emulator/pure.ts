/**
 * The one import point of the pure model modules for the server's own modules (signatures
 * fixed in `api.ts`).
 */
export { checkAttributes, mergeAttributes, readableAttributes } from './attributes.js';
export { newObjectAttributes, fillItemDefaults } from './defaults.js';
export { FilterSyntaxError, parseFilters, matchesFilter } from '../api/filter.js';
export type { Filter } from '../api/filter.js';
export { validatorMessageId, validatorMessages } from './validator.js';
