/**
 * A mapping's use of deny rules (docs/gateway-api.md "Deny rules"): `GET`/`PATCH
 * /configuration/{mappings}/{mid}/{usage}/{key}` for the built-in groups (enabled, log-only,
 * exceptions) and rules (log-only) by short name, and for the custom groups and rules by id
 * (log-only). The use is kept with the mapping (`StoredObject.denyRuleUsage`), so it travels
 * with the working copy through save, activate, export, import and the state file.
 *
 * The mapping kind serves them (its emulator hooks' `routes`); the custom kinds are those
 * whose emulator hooks declare `mappingUsage`. Stored keys: a built-in's short name, or
 * `{type}:{id}` for a custom group or rule (short names hold no colon).
 */
import type { KindDefinition } from '../kind.js';
import type { Json, JsonObject, KindCall, KindRoute, StoredObject } from '../emulator-hooks.js';
import { isObject } from '../values.js';
import { DENY_RULES, DENY_RULE_GROUPS, DEFAULT_USAGE, isDefaultUsage } from './deny-rules.js';
import type { DenyRuleUsage } from './deny-rules.js';

/** A JSON value as shown in an error detail. */
function show(value: Json | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

function isJsonObject(value: Json | undefined): value is JsonObject {
  return isObject(value);
}

/** The two pattern members an exception may carry; exactly one per exception. */
export const EXCEPTION_PATTERNS = ['parameterNamePattern', 'headerNamePattern'] as const;

/** One kind of per-mapping use: its path segment, resource type, attributes and how its key is checked. */
interface UsageKind {
  readonly segment: string;
  readonly type: string;
  /** The attributes served and accepted. */
  readonly attributes: readonly ('enabled' | 'logOnly' | 'exceptions')[];
  /** True when a PATCH body carries `data.id` (the custom kinds); a built-in's body has none. */
  readonly bodyId: boolean;
  /** The stored key of `key`, or undefined when no such group or rule exists in `call`'s working copy. */
  storedKey(call: KindCall, key: string): string | undefined;
}

function customUsage(kind: KindDefinition, type: string): UsageKind {
  return {
    segment: kind.collection,
    type,
    attributes: ['logOnly'],
    bodyId: true,
    storedKey: (call, key) => (call.objects(kind.type).has(key) ? `${kind.type}:${key}` : undefined),
  };
}

/** The uses a mapping has: of the built-in groups and rules, and of the objects of every kind with `mappingUsage` among `kinds`. */
const usageKinds = (kinds: readonly KindDefinition[]): readonly UsageKind[] => [
  {
    segment: 'deny-rule-groups',
    type: 'mapping-deny-rule-group',
    attributes: ['enabled', 'logOnly', 'exceptions'],
    bodyId: false,
    storedKey: (_call, key) => (DENY_RULE_GROUPS.some((g) => g.shortName === key) ? key : undefined),
  },
  {
    segment: 'deny-rules',
    type: 'mapping-deny-rule',
    attributes: ['logOnly'],
    bodyId: false,
    storedKey: (_call, key) => (DENY_RULES.some((r) => r.shortName === key) ? key : undefined),
  },
  // The kinds whose objects mappings use one by one (EmulatorHooks `mappingUsage`).
  ...kinds.flatMap((k) => (k.emulator.mappingUsage ? [customUsage(k, k.emulator.mappingUsage.type)] : [])),
];

function addressed(call: KindCall, usage: UsageKind, kind: KindDefinition): { mapping: StoredObject; key: string; storedKey: string } {
  const mid = call.param('mid');
  const mapping = call.objects(kind.type).get(mid);
  if (!mapping) throw call.errors.notFound(`${kind.type} ${mid}`);
  const key = call.param('key');
  const storedKey = usage.storedKey(call, key);
  if (storedKey === undefined) throw call.errors.notFound(`${usage.type} ${key} of ${kind.type} ${mid}`);
  return { mapping, key, storedKey };
}

function resource(usage: UsageKind, key: string, stored: DenyRuleUsage): JsonObject {
  const all: JsonObject = { enabled: stored.enabled, logOnly: stored.logOnly, exceptions: [...(stored.exceptions ?? [])] };
  return { type: usage.type, id: key, attributes: Object.fromEntries(usage.attributes.map((a) => [a, all[a] ?? null])) };
}

/**
 * One exception item, checked and completed (item and pattern `enabled` default true, the
 * pattern's `name` defaults to empty). @throws EmulatorApiError 400 INVALID_VALUE.
 */
function exceptionItem(errors: KindCall['errors'], item: Json, i: number): JsonObject {
  const where = `exceptions[${i}]`;
  if (!isJsonObject(item)) throw errors.invalidValue(`${where} must be an object`);
  const unknown = Object.keys(item).filter((k) => k !== 'enabled' && !(EXCEPTION_PATTERNS as readonly string[]).includes(k));
  if (unknown.length > 0) throw errors.invalidValue(`${where} has unknown member ${unknown[0] ?? ''}`);
  const given = EXCEPTION_PATTERNS.filter((p) => item[p] !== undefined && item[p] !== null);
  if (given.length !== 1) throw errors.invalidValue(`${where} must have exactly one of ${EXCEPTION_PATTERNS.join(', ')}`);
  const member = given[0] ?? 'parameterNamePattern';
  const pattern = item[member];
  if (!isJsonObject(pattern) || typeof pattern.pattern !== 'string') throw errors.invalidValue(`${where}.${member} must be an object with a string 'pattern'`);
  for (const [k, v] of Object.entries(pattern)) {
    const ok = k === 'pattern' || (k === 'name' && typeof v === 'string') || (k === 'enabled' && typeof v === 'boolean');
    if (!ok) throw errors.invalidValue(`${where}.${member}.${k}: ${show(v)} is not allowed (enabled: boolean, pattern, name: string)`);
  }
  if (item.enabled !== undefined && typeof item.enabled !== 'boolean') throw errors.invalidValue(`${where}.enabled must be a boolean`);
  return {
    enabled: item.enabled ?? true,
    [member]: { enabled: pattern.enabled ?? true, pattern: pattern.pattern, name: pattern.name ?? '' },
  };
}

/** The use a PATCH body asks for, merged onto `current`. @throws EmulatorApiError 400. */
function patched(call: KindCall, usage: UsageKind, key: string, current: DenyRuleUsage): DenyRuleUsage {
  const errors = call.errors;
  const data = call.data();
  if (!isJsonObject(data)) throw errors.invalidFormat("'data' must be a resource object");
  if (data.type !== usage.type) throw errors.invalidFormat(`'data.type' must be '${usage.type}'${data.type === undefined ? '' : `, not ${show(data.type)}`}`);
  if (usage.bodyId && data.id !== undefined && data.id !== null && (typeof data.id === 'object' || String(data.id) !== key)) {
    throw errors.invalidValue(`'data.id' (${show(data.id)}) differs from the id in the path (${key})`);
  }
  const attributes = data.attributes;
  if (!isJsonObject(attributes) || Object.keys(attributes).length === 0) throw errors.invalidValue("'data.attributes' must contain at least one attribute");
  let next: DenyRuleUsage = current;
  for (const [name, value] of Object.entries(attributes)) {
    if (!(usage.attributes as readonly string[]).includes(name)) throw errors.invalidValue(`${usage.type} has no attribute ${name} (it has ${usage.attributes.join(', ')})`);
    if (name === 'exceptions') {
      if (!Array.isArray(value)) throw errors.invalidValue('exceptions must be an array');
      next = { ...next, exceptions: value.map((item, i) => exceptionItem(errors, item, i)) };
    } else {
      if (typeof value !== 'boolean') throw errors.invalidValue(`${name} must be a boolean, not ${show(value)}`);
      next = { ...next, [name]: value };
    }
  }
  return next;
}

/** `mapping` with the use stored under `storedKey` set to `next` (dropped when default). */
function withUsage(mapping: StoredObject, storedKey: string, next: DenyRuleUsage): StoredObject {
  const { [storedKey]: _old, ...others } = mapping.denyRuleUsage ?? {};
  const all = isDefaultUsage(next) ? others : { ...others, [storedKey]: next };
  const { denyRuleUsage: _was, ...rest } = mapping;
  const sorted = Object.keys(all).sort();
  return sorted.length === 0 ? rest : { ...rest, denyRuleUsage: Object.fromEntries(sorted.map((k) => [k, all[k] as DenyRuleUsage])) };
}

function routesOf(kind: KindDefinition, usage: UsageKind): KindRoute[] {
  const pattern = ['configuration', kind.collection, ':mid', usage.segment, ':key'];
  const get = (call: KindCall): Json => {
    const { mapping, key, storedKey } = addressed(call, usage, kind);
    return resource(usage, key, mapping.denyRuleUsage?.[storedKey] ?? DEFAULT_USAGE);
  };
  const patch = (call: KindCall): Json => {
    const { mapping, key, storedKey } = addressed(call, usage, kind);
    const next = patched(call, usage, key, mapping.denyRuleUsage?.[storedKey] ?? DEFAULT_USAGE);
    call.objects(kind.type).set(mapping.id, withUsage(mapping, storedKey, next));
    return resource(usage, key, next);
  };
  return [
    { method: 'GET', pattern, modifying: false, handle: get },
    { method: 'PATCH', pattern, modifying: true, handle: patch },
  ];
}

/** The per-mapping deny rule usage routes of `kind` (the mapping kind), for the custom kinds among `kinds`. */
export function denyRuleUsageRoutes(kind: KindDefinition, kinds: readonly KindDefinition[]): KindRoute[] {
  return usageKinds(kinds).flatMap((u) => routesOf(kind, u));
}
