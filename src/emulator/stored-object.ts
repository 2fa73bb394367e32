/** Stored objects from their JSON form (state files, export archives). */
import { isResourceType } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { StoredUsage, JsonObject, StoredObject } from './model.js';

/**
 * A stored object from its JSON form (state files, export archives).
 * @throws the error `bad` builds when it lacks type, id or attributes
 */
export function toStoredObject(o: unknown, bad: (why: string) => Error): StoredObject {
  if (typeof o !== 'object' || o === null) throw bad('an object is not an object');
  const { type, id, attributes, relationships, denyRuleUsage, content } = o as Record<string, unknown>;
  if (!isResourceType(type) || typeof id !== 'string' || typeof attributes !== 'object' || attributes === null) {
    throw bad('an object lacks type, id or attributes');
  }
  const rels: Record<string, readonly string[]> = {};
  if (typeof relationships === 'object' && relationships !== null) {
    for (const [name, ids] of Object.entries(relationships)) {
      if (Array.isArray(ids)) rels[name] = ids.map(String);
    }
  }
  const usage = denyRuleUsageOf(denyRuleUsage);
  return {
    type: type satisfies ResourceType,
    id,
    attributes: attributes as JsonObject,
    relationships: rels,
    ...(usage ? { denyRuleUsage: usage } : {}),
    // The content sub-resource's bytes (base64), kept through archives and the state file.
    ...(typeof content === 'string' && content !== '' ? { content } : {}),
  };
}

/** The `denyRuleUsage` entries of an encoded object that hold two booleans (and an optional `exceptions` array); undefined when none do. */
function denyRuleUsageOf(raw: unknown): Record<string, StoredUsage> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const entries = Object.entries(raw as Record<string, unknown>).filter((e): e is [string, StoredUsage] => {
    const usage = e[1] as Partial<Record<keyof StoredUsage, unknown>> | null;
    return typeof usage === 'object' && usage !== null && typeof usage.enabled === 'boolean' && typeof usage.logOnly === 'boolean';
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries.map(([k, u]) => [k, { enabled: u.enabled, logOnly: u.logOnly, ...(Array.isArray(u.exceptions) && u.exceptions.length > 0 ? { exceptions: u.exceptions } : {}) }]));
}
