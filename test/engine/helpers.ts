/** Test helpers: manifest documents, API resources, PEMs, default plan options and an empty plan. */
import type { ResourceType } from '../../src/kinds/index.js';
import type { AttributeObject, ManifestDocument } from '../../src/manifest/types.js';
import type { ApiResource } from '../../src/engine/live.js';
import type { PlanOptions } from '../../src/engine/plan.js';
import { PLAN_FORMAT_VERSION } from '../../src/engine/plan-types.js';
import type { Plan } from '../../src/engine/plan-types.js';

/** A resolved manifest document; `name` is added to the attributes of kinds that have one. */
export function doc(
  kind: ResourceType,
  name: string,
  attributes: AttributeObject = {},
  relationships: Record<string, readonly string[]> = {},
  line = 1,
): ManifestDocument {
  return {
    kind,
    name,
    attributes: kind === 'ssl-certificate' ? attributes : { name, ...attributes },
    relationships,
    source: { file: `manifests/${kind}s.yaml`, line, column: 1 },
  };
}

/** A deterministic PEM certificate whose DER bytes are derived from `seed`. */
export function pem(seed: string): string {
  const der = Buffer.from(`certificate-der:${seed}`, 'utf8').toString('base64');
  return `-----BEGIN CERTIFICATE-----\n${der}\n-----END CERTIFICATE-----\n`;
}

type Rel = Record<string, { data: { type: string; id: string } | { type: string; id: string }[] | null }>;

/** A JSON:API resource object as a GET list returns it. */
export function resource(type: ResourceType, id: string, attributes: Record<string, unknown>, relationships: Rel = {}): ApiResource {
  return { type, id, attributes, relationships };
}

/** Relationship member helpers. */
export const many = (type: ResourceType, ...ids: string[]): Rel[string] => ({ data: ids.map((id) => ({ type, id })) });
export const one = (type: ResourceType, id: string | null): Rel[string] => ({ data: id === null ? null : { type, id } });

/** Plan options: no pruning, everything owned, default guard. */
export function options(overrides: Partial<PlanOptions> = {}): PlanOptions {
  return { prune: false, isOwned: () => true, allowMassDelete: false, massDeleteShare: 0.5, ...overrides };
}

/** A plan that changes nothing, for tests of what surrounds a plan (plan files). */
export const EMPTY_PLAN: Plan = {
  formatVersion: PLAN_FORMAT_VERSION,
  liveDigest: 'sha256:0',
  summary: { create: 0, update: 0, delete: 0, link: 0, unlink: 0 },
  steps: [],
  calls: [],
  unmanaged: [],
};
