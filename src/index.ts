/** Public programmatic API of gwops. */
export { KINDS, kindOf } from './kinds/index.js';
export type { KindDefinition, ResourceType, Variant } from './kinds/index.js';
