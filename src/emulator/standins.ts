/**
 * TEMPORARY stand-ins for the pure model modules (`attributes.ts`, `defaults.ts`,
 * `filter.ts`, `validator.ts`) that another helper is writing, with the signatures fixed in
 * `api.ts`. `pure.ts` re-exports from here until the real modules land; then this file is
 * deleted. Deliberately minimal: no schema checks, no defaults, no validator rules.
 */
import type { ResourceType, Variant } from '../kinds/index.js';
import type { ConfigContent, Json, JsonObject, ModelContext, ValidatorMessage } from './model.js';

/** Stand-in: accepts any object, coercing nothing. */
export function checkAttributes(
  _type: ResourceType,
  _variant: Variant,
  attributes: unknown,
): { ok: true; value: JsonObject } | { ok: false; detail: string } {
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) {
    return { ok: false, detail: 'attributes must be an object' };
  }
  return { ok: true, value: attributes as JsonObject };
}

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Stand-in deep merge: objects merge, everything else replaces. */
export function mergeAttributes(base: Readonly<JsonObject>, patch: Readonly<JsonObject>): JsonObject {
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    const old = out[k];
    out[k] = isObject(old) && isObject(v) ? mergeAttributes(old, v) : v;
  }
  return out;
}

/** Stand-in: drops `privateKey` and `passphrase`. */
export function readableAttributes(_type: ResourceType, attributes: Readonly<JsonObject>): JsonObject {
  const { privateKey: _p, passphrase: _q, ...rest } = attributes;
  return rest;
}

/** Stand-in: no server defaults. */
export function newObjectAttributes(_type: ResourceType, _variant: Variant, given: Readonly<JsonObject>): JsonObject {
  return { ...given };
}

/** Stand-in: identity. */
export function fillItemDefaults(_type: ResourceType, attributes: Readonly<JsonObject>): JsonObject {
  return { ...attributes };
}

export class FilterSyntaxError extends Error {}

/** Parsed filter: AND of OR-groups. */
export type Filter = { property: string; op: '==' | '=@'; value: string }[][];

/** Stand-in parser of `property==value` / `property=@value`. */
export function parseFilters(values: readonly string[]): Filter {
  return values.map((v) => {
    const group: { property: string; op: '==' | '=@'; value: string }[] = [];
    for (const piece of v.split(',')) {
      const m = /^(.*?)(==|=@)(.*)$/.exec(piece);
      if (m) group.push({ property: m[1] ?? '', op: m[2] === '=@' ? '=@' : '==', value: m[3] ?? '' });
      else {
        const prev = group[group.length - 1];
        if (!prev) throw new FilterSyntaxError(`invalid filter '${v}'`);
        group.push({ ...prev, value: piece });
      }
    }
    return group;
  });
}

function lookup(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const seg of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** Stand-in matcher. */
export function matchesFilter(
  filter: Filter,
  resource: { type: string; id: string; attributes?: unknown; meta?: unknown },
): boolean {
  return filter.every((group) =>
    group.some((c) => {
      const prop = c.property === 'label' ? 'labels' : c.property;
      let v = lookup(resource.attributes, prop);
      if (v === undefined) v = lookup(resource, prop);
      const values = Array.isArray(v) ? (v as unknown[]) : [v];
      return values.some((x) => {
        if (typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean') return false;
        const s = String(x);
        return c.op === '==' ? s === c.value : s.includes(c.value);
      });
    }),
  );
}

/** Stand-in: no rules. */
export function validatorMessages(_content: ConfigContent, _context: ModelContext): ValidatorMessage[] {
  return [];
}
