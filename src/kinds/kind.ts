/**
 * The one interface every resource kind implements (see docs/architecture.md "Habits": one
 * module per kind, in an explicit registry).
 *
 * Names follow the gateway configuration API: `type` is the JSON:API resource type,
 * `collection` the path segment under `/configuration`, relationship names are the
 * API's own (docs/gateway-api.md "Resource types", "Relationships").
 */

import type { EmulatorHooks } from './emulator-hooks.js';

/** The API's resource types that gwops manages. */
export type ResourceType = 'virtual-host' | 'mapping' | 'back-end-group' | 'ssl-certificate' | 'acme-service';

/** Gateway variants, as in docs/gateway-api.md "Variants". */
export type Variant = 'earliest' | 'middle' | 'latest';

export const VARIANTS: readonly Variant[] = ['earliest', 'middle', 'latest'];

/** One relationship of a kind, as served under `/{collection}/{id}/relationships/{name}`. */
export interface RelationshipDefinition {
  /** The API's relationship name, e.g. `mappings`, `ssl-certificate`. */
  readonly name: string;
  /** The resource type at the other end. */
  readonly target: ResourceType;
  /** `one`: `data` is one identifier or null; `many`: `data` is an array. */
  readonly cardinality: 'one' | 'many';
  /** The relationship name on the target that shows the same link. */
  readonly inverse: string;
  /** Variants in which this relationship exists; all when absent. */
  readonly variants?: readonly Variant[];
  /**
   * True on the side from which gwops sends link and unlink calls for this pair (the
   * endpoints real clients use: virtual host → mappings / ssl-certificate / acme-service,
   * mapping → back-end-groups). Exactly one side of each pair is canonical.
   */
  readonly canonical: boolean;
  /**
   * Other names under which gateways serve the same relationship, read as this one
   * (older gateways name a mapping's link to its back-end group `back-end-group`).
   */
  readonly aliases?: readonly string[];
}

/** How live objects of a kind are matched to manifest documents. */
export type IdentityRule =
  /** By the `name` attribute. */
  | 'name'
  /** By the SHA-256 fingerprint of the `certificate` attribute (objects without `name`). */
  | 'certificate-fingerprint';

/** The fixed shape of a kind module. */
export interface KindDefinition {
  readonly type: ResourceType;
  /** What the gateway emulator needs of this kind (defaults, validator rules, label). */
  readonly emulator: EmulatorHooks;
  /** Path segment under `/configuration`, e.g. `virtual-hosts`. */
  readonly collection: string;
  /** Relationships that exist on this kind, keyed by the API's relationship name. */
  readonly relationships: Readonly<Record<string, RelationshipDefinition>>;
  /**
   * Dependency level: lower levels are created first and deleted last
   * (certificates, ACME services, back-end groups = 0; mappings = 1; virtual hosts = 2).
   */
  readonly level: number;
  readonly identity: IdentityRule;
  /** Variants in which the kind exists at all. */
  readonly variants: readonly Variant[];
  /**
   * The manifest-only document kind whose documents this kind's manifests may name in
   * `extends` (mapping: `mapping-template`); none when absent.
   */
  readonly template?: string;
}
