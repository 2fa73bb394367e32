/**
 * The `live-mutation` property of the convergence drill: after a set is applied, one
 * change is made behind gwops's back anywhere in an object's live state, and `drift` must
 * report it exactly when it touches what the manifests declare, and `apply` must restore it.
 *
 * A mutation is one of:
 * - `top-level`, `nested`: a scalar attribute outside lists, declared or not, gets another
 *   value the schema allows;
 * - `list item member`: a scalar member of a list item (or a string of a string list),
 *   declared or not, gets another value, or a member the live item lacks is set (the
 *   whole list is sent, as PATCH rule 3 asks);
 * - `list shortened`: a list loses its last item;
 * - `link`: a link between two objects of the set is added or removed (either end chosen).
 *
 * The oracle does not ask the differ: a scalar outside lists is declared when the manifest
 * declares that very path; everything inside a declared list is declared (a declared item
 * is the whole item with its defaults, and the list is replaced whole); a link is managed
 * when either end declares its relationship key. The gateway's own value before the
 * mutation is what `apply` must bring back, and a mutation outside the declared surface
 * must survive `apply` untouched.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { ApiResource, GatewaySession } from '../../../src/gateway/index.js';
import type { Variant } from '../../../src/kinds/index.js';
import { kindOf, relationshipsIn } from '../../../src/kinds/index.js';
import type { JsonSchema } from '../../../src/schema/index.js';
import { wireSchema } from '../../../src/schema/index.js';
import type { GenObject, ManifestSet } from './manifest-set.js';
import type { Json } from './schema-arbitrary.js';

/** The classes of mutation, as the drill's table lists them. */
export const MUTATIONS = ['top-level', 'nested', 'list item member', 'list shortened', 'link'] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** What one mutation showed. */
export type MutationOutcome = 'reported and restored' | 'ignored and kept' | 'refused' | 'missed' | 'false report' | 'not restored';

/** The result of one mutation: its class, outcome and, when something went wrong, what. */
export interface MutationResult {
  readonly mutation: Mutation;
  readonly outcome: MutationOutcome;
  readonly violation?: string;
}

/** What the property needs of its trial. */
export interface MutationContext {
  readonly variant: Variant;
  readonly set: ManifestSet;
  readonly gen: fc.GeneratorValue;
  /** Runs raw API calls in a session of their own and activates them. */
  raw<T>(fn: (s: GatewaySession) => Promise<T>, comment: string): Promise<T>;
  /** `gwops drift --format json` of the base target: its exit code and its entries other than `added`. */
  drift(): Promise<{ code: number; entries: { direction: string; kind: string; name: string; path?: string }[]; text: string }>;
  /** `gwops apply --yes` of the base target: its exit code and output. */
  apply(): Promise<{ code: number; text: string }>;
}

type Segments = readonly string[];
type Attrs = { [key: string]: Json };

function isObject(value: unknown): value is Attrs {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function at(value: unknown, segments: Segments): unknown {
  let node = value;
  for (const s of segments) node = Array.isArray(node) ? node[Number(s)] : isObject(node) ? node[s] : undefined;
  return node;
}

/** The schema node at `segments` (array indexes step into `items`). */
function schemaAt(schema: JsonSchema, segments: Segments): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const s of segments) node = /^\d+$/.test(s) ? node?.items : node?.properties?.[s];
  return node;
}

/** Scalar leaves of a live attribute tree, with whether they sit inside a list. */
function leaves(value: unknown, segments: Segments = []): { segments: Segments; value: Json; inList: boolean }[] {
  if (Array.isArray(value)) return value.flatMap((item: unknown, i) => leaves(item, [...segments, String(i)]).map((l) => ({ ...l, inList: true })));
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => leaves(v, [...segments, k]));
  return segments.length === 0 ? [] : [{ segments, value: value as Json, inList: false }];
}

/**
 * Scalar members the schema gives a list item (or an object inside one) that the live
 * item lacks, with a value to set: a gateway that does not fill item defaults holds only
 * what was sent, and such a member set later is still inside the declared list.
 */
function absentItemMembers(value: unknown, schema: JsonSchema | undefined, segments: Segments = [], inItem = false): { segments: Segments; value: Json; inList: boolean }[] {
  if (Array.isArray(value)) return value.flatMap((item: unknown, i) => absentItemMembers(item, schema?.items, [...segments, String(i)], true));
  if (!isObject(value)) return [];
  return Object.entries(schema?.properties ?? {}).flatMap(([key, child]) => {
    if (key in value) return absentItemMembers(value[key], child, [...segments, key], inItem);
    if (!inItem) return [];
    const next = Array.isArray(child.enum) ? (child.enum[0] as Json) : child.type === 'boolean' ? true : child.type === 'integer' ? 1 : child.type === 'string' ? 'x' : undefined;
    return next === undefined ? [] : [{ segments: [...segments, key], value: next, inList: true }];
  });
}

/** Lists of a live attribute tree that hold at least one item. */
function lists(value: unknown, segments: Segments = []): Segments[] {
  if (Array.isArray(value)) return [...(value.length > 0 ? [segments] : []), ...value.flatMap((item: unknown, i) => lists(item, [...segments, String(i)]))];
  if (isObject(value)) return Object.entries(value).flatMap(([k, v]) => lists(v, [...segments, k]));
  return [];
}

/** Another value than `value` that `schema` allows, or undefined. */
function otherValue(schema: JsonSchema | undefined, value: Json): Json | undefined {
  if (Array.isArray(schema?.enum)) return (schema.enum as Json[]).find((v) => v !== value);
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return typeof schema?.maximum === 'number' && value + 1 > schema.maximum ? value - 1 : value + 1;
  if (typeof value === 'string') return `${value}x`;
  return undefined;
}

/**
 * True when the declared attributes reach `segments`: a declared path all the way down,
 * or a declared list on the way (a list is managed whole).
 */
export function declaresPath(declared: unknown, segments: Segments): boolean {
  let node = declared;
  for (const s of segments) {
    if (Array.isArray(node)) return true;
    if (!isObject(node) || !(s in node)) return false;
    node = node[s];
    if (isObject(node) && typeof node.fromEnv === 'string') return true; // a secret reference is one declared value
  }
  return node !== undefined;
}

/** `segments` set to `next` inside a copy of the top-level attribute, as one PATCH body's attributes. */
function patchAt(live: Attrs, segments: Segments, edit: (parent: Attrs | Json[], key: string) => void): Attrs {
  const [top] = segments;
  if (top === undefined) return {};
  const copy = structuredClone(live[top]) as Json;
  const holder: Attrs = { [top]: copy };
  const parent = at(holder, segments.slice(0, -1)) as Attrs | Json[];
  edit(parent, segments[segments.length - 1] ?? '');
  return holder;
}

function linkedIds(resource: ApiResource, relationship: string): string[] {
  const data = resource.relationships[relationship]?.data;
  if (Array.isArray(data)) return data.map((d) => d.id);
  return data ? [data.id] : [];
}

async function find(s: GatewaySession, o: GenObject): Promise<ApiResource | undefined> {
  const [found] = await s.list(kindOf(o.kind).collection, [`name==${o.name}`]);
  return found;
}

/**
 * One random mutation of the applied `set`, checked as the module comment says. With
 * `focus`, a member of a declared list item that the manifest leaves unset is chosen
 * whenever the object has one: the members a differ most easily overlooks.
 */
export async function mutateOnce(ctx: MutationContext, focus = false): Promise<MutationResult | undefined> {
  const { gen, set, variant } = ctx;
  // Objects that extend a template declare more than their own document: left to the other properties.
  const objects = set.objects.filter((o) => kindOf(o.kind).identity.byName && o.extends === undefined);
  const pick = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[gen(fc.nat, items.length - 1)]);
  const o = pick(objects);
  if (!o) return undefined;
  const def = kindOf(o.kind);
  const skip = new Set(['name', ...def.identity.attributes]);

  const links = relationshipsIn(def, variant).flatMap((rel) =>
    set.objects.filter((t) => t.kind === rel.target && kindOf(t.kind).identity.byName && t !== o).map((t) => ({ rel, t })),
  );
  const base = await ctx.raw(async (s) => find(s, o), 'cv read');
  if (!base) return undefined;
  const live = base.attributes as Attrs;
  const schema = wireSchema(o.kind, variant, { keepRanges: true });
  const absent = absentItemMembers(live, schema).filter((l) => !skip.has(l.segments[0] ?? ''));
  const scalars = [...leaves(live), ...absent].filter((l) => !skip.has(l.segments[0] ?? ''));
  const shortenable = lists(live).filter((l) => !skip.has(l[0] ?? ''));
  const classes = MUTATIONS.filter((m) =>
    m === 'link' ? links.length > 0 : m === 'list shortened' ? shortenable.length > 0 : scalars.some((l) => classOf(l) === m),
  );
  const unsetInDeclaredItem = scalars.filter((l) => classOf(l) === 'list item member' && declaresPath(o.attributes, l.segments) && at(o.attributes, l.segments) === undefined);
  const focused = focus && unsetInDeclaredItem.length > 0;
  const mutation = focused ? 'list item member' : pick(classes);
  if (!mutation) return undefined;

  if (mutation === 'link') return mutateLink(ctx, o, pick(links));
  let segments: Segments;
  let attributes: Attrs;
  if (mutation === 'list shortened') {
    segments = pick(shortenable) ?? [];
    attributes = patchAt(live, segments, (parent, key) => {
      const list = Array.isArray(parent) ? parent[Number(key)] : parent[key];
      if (Array.isArray(list)) list.pop();
    });
  } else {
    const leaf = pick(focused ? unsetInDeclaredItem : scalars.filter((l) => classOf(l) === mutation));
    const next = leaf && absent.includes(leaf) ? leaf.value : leaf ? otherValue(schemaAt(schema, leaf.segments), leaf.value) : undefined;
    if (!leaf || next === undefined) return undefined;
    segments = leaf.segments;
    attributes = patchAt(live, segments, (parent, key) => {
      if (Array.isArray(parent)) parent[Number(key)] = next;
      else parent[key] = next;
    });
  }
  const declared = declaresPath(o.attributes, segments);
  const where = `${o.kind} '${o.name}' ${segments.join('.')} (${mutation}, ${declared ? 'declared' : 'not declared'})`;
  let mutated: unknown;
  try {
    mutated = await ctx.raw(async (s) => {
      await s.update(def.collection, base.id, { type: o.kind, attributes });
      return at((await find(s, o))?.attributes, segments);
    }, 'cv live mutation');
  } catch {
    return { mutation, outcome: 'refused' };
  }
  const before = at(live, segments);
  const drift = await ctx.drift();
  const aboutIt = drift.entries.filter((e) => e.kind === o.kind && e.name === o.name && e.path !== undefined && `${segments.join('.')}.`.startsWith(`${e.path}.`));
  if (declared && (drift.code !== 2 || aboutIt.length === 0)) return { mutation, outcome: 'missed', violation: `drift does not report ${where}:\n${drift.text}` };
  if (drift.entries.length !== aboutIt.length) return { mutation, outcome: 'false report', violation: `drift reports more than ${where}:\n${drift.text}` };
  const apply = await ctx.apply();
  if (apply.code !== 0) return { mutation, outcome: 'not restored', violation: `apply exits ${apply.code} after ${where}:\n${apply.text}` };
  const after = await ctx.raw(async (s) => at((await find(s, o))?.attributes, segments), 'cv read');
  const want = declared ? before : mutated;
  // Member order inside a JSON object carries no meaning: the gateway may answer in another order.
  if (!isDeepStrictEqual(after, want)) {
    return { mutation, outcome: 'not restored', violation: `after apply, ${where} holds ${JSON.stringify(after)}, not ${JSON.stringify(want)}` };
  }
  const again = await ctx.drift();
  if (again.entries.length > 0) return { mutation, outcome: 'not restored', violation: `drift after apply still reports, after ${where}:\n${again.text}` };
  return { mutation, outcome: declared ? 'reported and restored' : 'ignored and kept' };
}

/** True when the manifest of `o` declares its relationship key `name` (a to-one key only with a target). */
function declaresKey(o: GenObject, name: string): boolean {
  const targets = o.relationships[name];
  if (targets === undefined) return false;
  return kindOf(o.kind).relationships[name]?.cardinality !== 'one' || targets.length > 0;
}

function classOf(leaf: { segments: Segments; inList: boolean }): Mutation {
  if (leaf.inList) return 'list item member';
  return leaf.segments.length === 1 ? 'top-level' : 'nested';
}

/** Adds or removes the link between `o` and `t` through `rel` (either side), and checks drift and apply. */
async function mutateLink(ctx: MutationContext, o: GenObject, chosen: { rel: ReturnType<typeof relationshipsIn>[number]; t: GenObject } | undefined): Promise<MutationResult | undefined> {
  if (!chosen) return undefined;
  const { rel, t } = chosen;
  const mutation: Mutation = 'link';
  const inverse = kindOf(t.kind).relationships[rel.inverse];
  const [from, to, name] = rel.canonical ? [o, t, rel.name] : [t, o, rel.inverse];
  const managed = declaresKey(o, rel.name) || declaresKey(t, rel.inverse);
  const where = `link ${from.kind} '${from.name}' ${name} ${to.kind} '${to.name}' (${managed ? 'managed' : 'not managed'})`;
  let linkedBefore = false;
  try {
    linkedBefore = await ctx.raw(async (s) => {
      const a = await find(s, from);
      const b = await find(s, to);
      if (!a || !b) throw new Error('object not found');
      const ids = linkedIds(a, name);
      const linked = ids.includes(b.id);
      const one = (rel.canonical ? rel.cardinality : inverse?.cardinality) === 'one';
      if (linked) await s.unlink(kindOf(from.kind).collection, a.id, name, { type: to.kind, id: b.id });
      else if (one && ids.length > 0) throw new Error('to-one relationship already holds a link');
      else await s.link(kindOf(from.kind).collection, a.id, name, { type: to.kind, id: b.id });
      return linked;
    }, 'cv live link');
  } catch {
    return { mutation, outcome: 'refused' };
  }
  const isLinked = (): Promise<boolean> =>
    ctx.raw(async (s) => {
      const a = await find(s, from);
      const b = await find(s, to);
      return a !== undefined && b !== undefined && linkedIds(a, name).includes(b.id);
    }, 'cv read');
  const drift = await ctx.drift();
  const ends = [from, to];
  const aboutIt = drift.entries.filter((e) => ends.some((x) => x.kind === e.kind && x.name === e.name) && (e.path ?? '').startsWith('relationships.'));
  if (managed && (drift.code !== 2 || aboutIt.length === 0)) return { mutation, outcome: 'missed', violation: `drift does not report ${where}:\n${drift.text}` };
  if (drift.entries.length !== aboutIt.length) return { mutation, outcome: 'false report', violation: `drift reports more than ${where}:\n${drift.text}` };
  const apply = await ctx.apply();
  if (apply.code !== 0) return { mutation, outcome: 'not restored', violation: `apply exits ${apply.code} after ${where}:\n${apply.text}` };
  const linkedAfter = await isLinked();
  const want = managed ? linkedBefore : !linkedBefore;
  if (linkedAfter !== want) return { mutation, outcome: 'not restored', violation: `after apply, ${where} is ${linkedAfter ? '' : 'not '}linked` };
  const again = await ctx.drift();
  if (again.entries.length > 0) return { mutation, outcome: 'not restored', violation: `drift after apply still reports, after ${where}:\n${again.text}` };
  return { mutation, outcome: managed ? 'reported and restored' : 'ignored and kept' };
}

/**
 * Runs `count` mutations one after the other; stops at the first violation. The first one
 * is focused (see {@link mutateOnce}), so that even a one-mutation sample reaches the
 * members of declared list items that manifests leave unset.
 */
export async function mutations(ctx: MutationContext, count: number): Promise<MutationResult[]> {
  const out: MutationResult[] = [];
  for (let i = 0; i < count; i++) {
    const result = await mutateOnce(ctx, i === 0);
    if (!result) continue;
    out.push(result);
    if (result.violation !== undefined) break;
  }
  return out;
}
