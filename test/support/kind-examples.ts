/**
 * One example object per registered kind, read from `example.ts` in each kind's folder
 * (src/kinds/example.ts describes it), for the tests that walk every kind. A registered
 * kind without one fails the import here, so every such test fails until it has one.
 */
import type { ResourceType } from '../../src/kinds/index.js';
import { KINDS, kindOf } from '../../src/kinds/index.js';
import type { ExampleHook } from '../../src/kinds/example.js';
import { attributesSchema } from '../../src/schema/index.js';

export type { ExampleCertificate, ExampleFixtures, ExampleHook, ExampleRequirement, KindExample } from '../../src/kinds/example.js';

/** The example of every registered kind, by resource type. */
export const KIND_EXAMPLES: Readonly<Record<ResourceType, ExampleHook>> = Object.fromEntries(
  await Promise.all(KINDS.map(async (kind) => [kind.type, ((await import(`../../src/kinds/${kind.type}/example.ts`)) as { example: ExampleHook }).example] as const)),
) as Record<ResourceType, ExampleHook>;

/**
 * True when objects of `type` have a top-level attribute besides their identity (`name`, or
 * the attributes the kind's identity never compares, such as a node's `hostName`), so that
 * the example names an update; false for a kind whose only attribute is its identity.
 */
export function hasUpdatableAttributes(type: ResourceType): boolean {
  const identity = kindOf(type).identity.ignoredInDiff;
  return Object.keys(attributesSchema(type).properties ?? {}).some((key) => key !== 'name' && !identity.includes(key));
}
