/**
 * Drift that a key rotation at a key source causes (pure): a `{ fromJwks }` key
 * (docs/manifest-reference.md "Token keys from a JWKS") resolves to the JWK Set's current
 * key, while the gateway still holds an earlier key that the set still publishes. Neither
 * the gateway nor Git changed: the key source did, and apply rolls its new key out. Such
 * entries get side `key-source` (drift-report.ts), so reports do not call them changes on
 * the gateway, `--fail-on gateway` does not count them and `drift --adopt` does not write them.
 */
import type { ResourceType } from '../kinds/index.js';
import type { PublicKeyTools } from '../crypto/port.js';
import type { DriftReport } from './drift-report.js';
import { gatewayDrifted } from './drift-report.js';
import type { State } from './model.js';

/** An attribute whose declared value is read from a key source. */
export interface KeySourceReference {
  readonly kind: ResourceType;
  readonly name: string;
  /** Dotted attribute path, as drift entries name it. */
  readonly path: string;
  /** The `jwks` source's name, or the URL (without credentials). */
  readonly source: string;
}

/** The value at dotted `path` of `attributes` (array items by index); undefined when absent. */
function valueAt(attributes: unknown, path: string): unknown {
  let node = attributes;
  for (const segment of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/**
 * The report with each changed attribute read from a key source, whose live key the key
 * sources of the run still publish, marked as a rotation there (side `key-source`, and the
 * source); `gatewayDrifted` counted again. Unchanged when there is none.
 * @param published RFC 7638 thumbprint → kid over every key of every JWK Set fetched in the run
 * @param keys reads the thumbprint of the live PEM key (src/jwks/node-keys.ts)
 */
export function markKeyRotations(report: DriftReport, references: readonly KeySourceReference[], live: State, published: ReadonlyMap<string, string>, keys: PublicKeyTools): DriftReport {
  if (references.length === 0) return report;
  const sources = new Map(references.map((r) => [`${r.kind}\u0000${r.name}\u0000${r.path}`, r.source]));
  let marked = false;
  const entries = report.entries.map((entry) => {
    if (entry.direction !== 'changed' || entry.path === undefined) return entry;
    const source = sources.get(`${entry.kind}\u0000${entry.name}\u0000${entry.path}`);
    if (source === undefined) return entry;
    const value = valueAt(live.objects.get(entry.kind)?.get(entry.name)?.attributes, entry.path);
    const thumbprint = typeof value === 'string' ? keys.pemThumbprint(value) : undefined;
    if (thumbprint === undefined || !published.has(thumbprint)) return entry;
    marked = true;
    return { ...entry, side: 'key-source' as const, keySource: source };
  });
  return marked ? { ...report, entries, gatewayDrifted: gatewayDrifted(entries) } : report;
}
