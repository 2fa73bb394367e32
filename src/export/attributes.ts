/**
 * What `gwops export` writes of one live object's attributes: the attributes that differ
 * from the server defaults (the recorded tree under `server-defaults/` over the kind's
 * `defaults.extra`, as data: docs/gateway-api.md "Attributes and server defaults") and
 * `name` (the identity; the document's name when written), without attributes gwops does not know, and with every
 * secret that holds one replaced by a {@link SecretSlot} (filled with `{ fromEnv }` later).
 */
import { NODE_CERTIFICATES } from '../crypto/node.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { kindOf } from '../kinds/index.js';
import type { Key } from '../core/object-key.js';
import { joinKey } from '../core/object-key.js';
import type { JsonSchema } from '../schema/index.js';
import type { EqualsValue } from './default-equals.js';
import { compileEquals } from './default-equals.js';
import { secretAttributes, wireSchema, writeOnlyAttributes } from '../schema/index.js';
import { NoSecret, SecretSlot, isPlainObject, jsonEqual } from './values.js';
import { defaultTree } from './default-tree.js';
import { ownMember, setOwnMember } from '../core/own-member.js';

/** Receives the path of an attribute the schema does not know (see {@link AttributeOptions.unknown}). */
type Unknown = (path: string) => void;

/**
 * The schema of a write-only secret in a kind's {@link KindRules.exportSchema}: left out of
 * the export (secrets are scalars, so nothing below one is reported as unknown).
 */
const LEFT_OUT: JsonSchema = {};
/** The schema of a value kept as it is (below a schema without `properties` or `items`). */
const AS_IS: JsonSchema = {};

// The walks below read members with `for...in` rather than `Object.keys`: V8 then reads
// each member by its slot (the objects come from JSON.parse, so nothing is inherited), and
// they run over every attribute of every exported object (about 430 values a mapping).

/**
 * What `schema` keeps of `value` (a wire schema whose write-only secrets are {@link LEFT_OUT}):
 * the known members of objects, list items one by one, anything else as it is; with
 * `unknown`, the dotted path of each member it does not know is reported (`at`: the path
 * of `value`, keys and `[]` for list items, extended and restored in place). Lists and
 * objects are copied, so the live object is never changed.
 */
function keep(value: unknown, schema: JsonSchema, at: string[], unknown: Unknown | undefined): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return value;
    at.push('[]');
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = keep(value[i], items, at, unknown);
    at.pop();
    return out;
  }
  if (!isPlainObject(value) || !schema.properties) return value;
  const props = schema.properties;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const childSchema = ownMember(props, key);
    if (!childSchema) {
      unknown?.(dotted([...at, key]));
    } else if (childSchema !== LEFT_OUT) {
      at.push(key);
      setOwnMember(out, key, keep(value[key], childSchema, at, unknown));
      at.pop();
    }
  }
  return out;
}

/**
 * Whether `keep(value, schema)` equals `fallback` ({@link jsonEqual}), without making it.
 * With `unknown`, every member is visited and the unknown ones reported as {@link keep}
 * does; without, it stops at the first difference.
 */
function keptEquals(value: unknown, schema: JsonSchema, fallback: unknown, at: string[], unknown: Unknown | undefined): boolean {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (!items) return jsonEqual(value, fallback);
    let equal = Array.isArray(fallback) && value.length === fallback.length;
    if (!equal && !unknown) return false;
    at.push('[]');
    for (let i = 0; i < value.length; i++) {
      if (!keptEquals(value[i], items, equal ? (fallback as unknown[])[i] : undefined, at, unknown)) {
        equal = false;
        if (!unknown) break;
      }
    }
    at.pop();
    return equal;
  }
  if (!isPlainObject(value)) return value === fallback;
  if (!schema.properties) return jsonEqual(value, fallback);
  const props = schema.properties;
  const other = isPlainObject(fallback) ? fallback : undefined;
  let equal = other !== undefined;
  if (!equal && !unknown) return false;
  let kept = 0;
  for (const key in value) {
    const childSchema = ownMember(props, key);
    if (!childSchema) {
      unknown?.(dotted([...at, key]));
      continue;
    }
    if (childSchema === LEFT_OUT) continue;
    kept += 1;
    const has = equal && other !== undefined && Object.hasOwn(other, key);
    at.push(key);
    if (!keptEquals(value[key], childSchema, has ? other?.[key] : undefined, at, unknown) || !has) equal = false;
    at.pop();
    if (!equal && !unknown) return false;
  }
  return equal && other !== undefined && kept === keyCount(other);
}

/** How many members each object of a default tree has, counted once (the trees never change). */
const keyCounts = new WeakMap<object, number>();

function keyCount(value: Record<string, unknown>): number {
  let count = keyCounts.get(value);
  if (count === undefined) {
    count = Object.keys(value).length;
    keyCounts.set(value, count);
  }
  return count;
}

/**
 * `stripDefaults(keep(value, schema), defaults)` for an object `value`, made in one pass
 * that also reports the unknown members (with `unknown`): a member equal to its default is
 * compared where it is, never copied (most of a live object's attributes are defaults).
 * With `frozen` (the top level only), a member whose value is a frozen object, taken as
 * deep-frozen (the REST client shares the members that repeat from one list element to the
 * next that way), is walked once per value and name: what it kept and reported is
 * remembered in `frozen` and given again for the same value.
 */
function keepChanged(
  value: Record<string, unknown>,
  schema: JsonSchema,
  defaults: Readonly<Record<string, unknown>>,
  at: string[],
  unknown: Unknown | undefined,
  equalsDefault?: ReadonlyMap<string, EqualsValue>,
  frozen?: FrozenMembers,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const child = value[key];
    if (frozen !== undefined && typeof child === 'object' && child !== null && Object.isFrozen(child)) {
      let byName = frozen.get(child);
      let outcome = byName?.get(key);
      if (outcome === undefined) {
        const reported: string[] = [];
        const one: Record<string, unknown> = {};
        keepMember(one, key, child, schema, defaults, at, (path) => reported.push(path), equalsDefault);
        outcome = { has: Object.hasOwn(one, key), kept: one[key], unknown: reported };
        if (byName === undefined) frozen.set(child, (byName = new Map<string, FrozenOutcome>()));
        byName.set(key, outcome);
      }
      if (unknown !== undefined) for (const path of outcome.unknown) unknown(path);
      if (outcome.has) setOwnMember(out, key, outcome.kept);
      continue;
    }
    keepMember(out, key, child, schema, defaults, at, unknown, equalsDefault);
  }
  return out;
}

/** What {@link keepChanged} keeps of the member `key` (value `child`) of an object of `schema`, set into `out`. */
function keepMember(
  out: Record<string, unknown>,
  key: string,
  child: unknown,
  schema: JsonSchema,
  defaults: Readonly<Record<string, unknown>>,
  at: string[],
  unknown: Unknown | undefined,
  equalsDefault: ReadonlyMap<string, EqualsValue> | undefined,
): void {
  const childSchema = schema.properties ? ownMember(schema.properties, key) : AS_IS;
  if (!childSchema) {
    unknown?.(dotted([...at, key]));
    return;
  }
  if (childSchema === LEFT_OUT) return;
  // A member equal to its default (the compiled check): nothing to keep, nothing unknown (the default has nothing unknown).
  if (equalsDefault?.get(key)?.(child) === true) return;
  at.push(key);
  if (!Object.hasOwn(defaults, key)) {
    setOwnMember(out, key, keep(child, childSchema, at, unknown));
  } else {
    const fallback = defaults[key];
    // The comparison reports what `child` holds that the schema does not know; what follows does not again.
    if (!keptEquals(child, childSchema, fallback, at, unknown)) {
      if (isPlainObject(child) && isPlainObject(fallback)) {
        const stripped = keepChanged(child, childSchema, fallback, at, undefined);
        if (Object.keys(stripped).length > 0) setOwnMember(out, key, stripped);
      } else {
        setOwnMember(out, key, keep(child, childSchema, at, undefined));
      }
    }
  }
  at.pop();
}

/** What {@link keepChanged} made of a frozen member value, by the value and the member's name. */
type FrozenMembers = WeakMap<object, Map<string, FrozenOutcome>>;

/** Whether a frozen member value was kept, as what, and the unknown paths reported walking it. */
interface FrozenOutcome {
  readonly has: boolean;
  readonly kept: unknown;
  readonly unknown: readonly string[];
}

/** `schema` with the member at each of `paths` (`*` = list items) replaced by {@link LEFT_OUT}; copied along the paths only. */
function leaveOut(schema: JsonSchema, paths: readonly (readonly string[])[]): JsonSchema {
  const at = (node: JsonSchema, path: readonly string[]): JsonSchema => {
    const [head, ...rest] = path;
    if (head === undefined) return LEFT_OUT;
    if (head === '*') return node.items ? { ...node, items: at(node.items, rest) } : node;
    const child = node.properties?.[head];
    return child ? { ...node, properties: { ...node.properties, [head]: at(child, rest) } } : node;
  };
  return paths.reduce(at, schema);
}

/** `a.b[].c` from the segments `a`, `b`, `[]`, `c`. */
function dotted(segments: readonly string[]): string {
  return segments.reduce((path, segment) => (segment === '[]' ? `${path}[]` : path === '' ? segment : `${path}.${segment}`), '');
}

/** Calls `fn` with each concrete path (array indexes as decimal strings) that `pattern` (`*` = any index) matches in `value`. */
export function forEachPath(value: unknown, pattern: readonly string[], fn: (path: string[], parent: Record<string, unknown>, key: string) => void, at: string[] = []): void {
  const [head, ...rest] = pattern;
  if (head === undefined) return;
  if (head === '*') {
    if (!Array.isArray(value)) return;
    value.forEach((item: unknown, i) => forEachPath(item, rest, fn, [...at, String(i)]));
    return;
  }
  if (!isPlainObject(value)) return;
  if (rest.length === 0) {
    fn([...at, head], value, head);
    return;
  }
  if (Object.hasOwn(value, head)) forEachPath(value[head], rest, fn, [...at, head]);
}

/** Options of {@link exportAttributes}. */
export interface AttributeOptions {
  readonly variant: Variant;
  /** Keep the attributes equal to the server defaults (`--keep-defaults`). */
  readonly keepDefaults: boolean;
  /** Receives the dotted path of each attribute that the variant's schema does not know (left out). */
  readonly unknown: (path: string) => void;
}

/**
 * The attributes a manifest of a live object declares (see the module comment). Secrets
 * that hold one (schema `x-gwops-secret`, unless the kind's `holdsSecret` says the value
 * is none) become {@link SecretSlot}s; a write-only value the gateway returned anyway is
 * never kept, and one the object takes none of (KindDefinition `takesWriteOnly`) is marked
 * {@link NoSecret}, so that no source is written for it.
 */
export function exportAttributes(type: ResourceType, live: Readonly<Record<string, unknown>>, options: AttributeOptions): Record<string, unknown> {
  const kind = kindOf(type);
  const { exportSchema, secrets, defaults, equalsDefault, frozenMembers } = kindRules(type, options.variant);
  // The readable secrets that hold a value, found in the live object: what the schema keeps
  // of it holds them at the same paths (lists keep every item).
  const slots: string[][] = [];
  for (const secret of secrets) {
    if (secret.writeOnly) continue;
    forEachPath(live, secret.segments, (path, parent, key) => {
      if (!Object.hasOwn(parent, key)) return;
      const value = parent[key];
      if (value === '' || value === null || value === undefined) return;
      if (kind.holdsSecret?.(path, live) === false) return;
      slots.push(path);
    });
  }
  // The write-only secrets this object takes no value for (a certificate's passphrase when its key is not encrypted).
  const none: string[][] = [];
  for (const secret of secrets) {
    if (!secret.writeOnly || !kind.takesWriteOnly) continue;
    const takes = kind.takesWriteOnly;
    forEachPath(live, secret.segments, (path) => {
      if (!takes(path, live, NODE_CERTIFICATES)) none.push(path);
    });
  }
  // A secret slot is set into what is kept below: that must not be a kept value shared with other objects.
  const frozen = slots.length === 0 && none.length === 0 ? frozenMembers : undefined;
  const attributes = options.keepDefaults
    ? (keep(live, exportSchema, [], options.unknown) as Record<string, unknown>)
    : keepChanged(live, exportSchema, defaults, [], options.unknown, equalsDefault, frozen);
  for (const path of slots) {
    const last = path[path.length - 1];
    let node: unknown = attributes;
    for (const segment of path.slice(0, -1)) node = Array.isArray(node) ? node[Number(segment)] : isPlainObject(node) ? node[segment] : undefined;
    if (last !== undefined && isPlainObject(node) && Object.hasOwn(node, last)) node[last] = new SecretSlot(false);
  }
  for (const path of none) {
    const last = path[path.length - 1];
    let node: unknown = attributes;
    for (const segment of path.slice(0, -1)) node = Array.isArray(node) ? node[Number(segment)] : isPlainObject(node) ? node[segment] : undefined;
    if (last !== undefined && isPlainObject(node)) setOwnMember(node, last, new NoSecret());
  }
  return attributes;
}

/** What {@link exportAttributes} reads of a kind's schema and defaults, per kind and variant. */
interface KindRules {
  /** The wire schema with ranges. */
  readonly schema: JsonSchema;
  /** {@link schema} with its write-only secrets {@link LEFT_OUT}. */
  readonly exportSchema: JsonSchema;
  /** The attributes marked secret, and whether each is write-only. */
  readonly secrets: readonly { readonly segments: readonly string[]; readonly writeOnly: boolean }[];
  readonly defaults: Readonly<Record<string, unknown>>;
  /**
   * Per top-level attribute whose default object or list {@link keptEquals} finds equal to
   * itself with nothing unknown, a compiled check that a live value equals that default
   * (src/export/default-equals.ts): such a value is left out without walking it.
   */
  readonly equalsDefault: ReadonlyMap<string, EqualsValue>;
  /** What the top-level walk made of each frozen member value met so far ({@link keepChanged}). */
  readonly frozenMembers: FrozenMembers;
}

const rulesCache = new Map<Key<'export rules'>, KindRules>();

/** The {@link KindRules} of `type` in `variant`, made once (the schema's conversion costs more than exporting an object). */
function kindRules(type: ResourceType, variant: Variant): KindRules {
  const key = joinKey<'export rules'>(type, variant);
  let rules = rulesCache.get(key);
  if (!rules) {
    const writeOnly = new Set(writeOnlyAttributes(type).map((p) => p.path));
    const schema = wireSchema(type, variant, { keepRanges: true });
    const secrets = secretAttributes(type).map((p) => ({ segments: p.segments, writeOnly: writeOnly.has(p.path) }));
    const exportSchema = leaveOut(
      schema,
      secrets.filter((s) => s.writeOnly).map((s) => s.segments),
    );
    const defaults = defaultTree(type);
    const equalsDefault = new Map<string, EqualsValue>();
    for (const [key, value] of Object.entries(defaults)) {
      const childSchema = exportSchema.properties?.[key];
      if (typeof value !== 'object' || value === null || !childSchema || childSchema === LEFT_OUT) continue;
      let unknown = false;
      if (!keptEquals(value, childSchema, value, [key], () => (unknown = true)) || unknown) continue;
      const equals = compileEquals(value);
      if (equals) equalsDefault.set(key, equals);
    }
    rules = { schema, exportSchema, secrets, defaults, equalsDefault, frozenMembers: new WeakMap() };
    rulesCache.set(key, rules);
  }
  return rules;
}
