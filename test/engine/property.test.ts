/**
 * Property: for random desired and live states, executing the plan on a simulated gateway
 * makes live equal desired (declared attributes, managed links), and planning again yields
 * no steps.
 */
import type { RelationshipData } from '../../src/gateway/index.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS, kindOf } from '../../src/kinds/index.js';
import type { ResourceType } from '../../src/kinds/index.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import type { ApiResource } from '../../src/engine/live.js';
import type { State } from '../../src/engine/model.js';
import { linkKey, linkKeyLookup, linkKeysOf } from '../../src/engine/model.js';
import { buildPlan } from '../../src/engine/plan.js';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { writeOnlyAttributes } from '../../src/schema/index.js';
import { doc, pem } from './helpers.js';
import { FakeGateway, merge } from './simulator.js';
import { MassDeleteError } from '../../src/engine/errors.js';

const NAMES = ['a', 'b', 'oa', 'ob'] as const;
const CERT_SEEDS = ['p1', 'p2', 'p3'] as const;
/** The kinds whose objects the name identifies, from the registry. */
const NAMED_KINDS: ResourceType[] = KINDS.filter((k) => k.identity.byName).map((k) => k.type);

const leaf = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('x', 'y'), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.array(fc.dictionary(fc.constantFrom('k', 'l'), leaf, { maxKeys: 2 }), { maxLength: 2 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.constantFrom('alpha', 'beta'), fc.oneof(leaf, fc.dictionary(fc.constantFrom('gamma', 'delta'), leaf, { maxKeys: 2 })), { maxKeys: 2 }) },
);
const tree = fc.dictionary(fc.constantFrom('alpha', 'beta', 'gamma'), value, { maxKeys: 3 });
const secret = fc.integer({ min: 0, max: 3 }).map((n) => `SECRET-VALUE-${n}`);

/** Attributes for a kind: random trees plus the kind's secret-bearing attributes now and then. */
function attributes(kind: ResourceType): fc.Arbitrary<Record<string, unknown>> {
  const extra =
    kind === 'mapping'
      ? fc.option(secret.map((s) => ({ access: { tokenVerification: { jwsKey: s, type: 'JWS' } } })), { nil: {} })
      : kind === 'acme-service'
        ? fc.option(fc.record({ k: secret, e: fc.boolean() }).map(({ k, e }) => ({ externalAccountBinding: { hmacKey: k, enabled: e } })), { nil: {} })
        : fc.constant({});
  return fc.tuple(tree, extra).map(([t, e]) => ({ ...t, ...e }));
}

interface World {
  docs: ManifestDocument[];
  lists: Partial<Record<ResourceType, ApiResource[]>>;
  prune: boolean;
}

const world: fc.Arbitrary<World> = fc
  .record({
    desiredNames: fc.record(Object.fromEntries(NAMED_KINDS.map((k) => [k, fc.subarray([...NAMES])])) as Record<ResourceType, fc.Arbitrary<string[]>>),
    liveNames: fc.record(Object.fromEntries(NAMED_KINDS.map((k) => [k, fc.subarray([...NAMES])])) as Record<ResourceType, fc.Arbitrary<string[]>>),
    desiredCerts: fc.subarray([...CERT_SEEDS]),
    liveCerts: fc.subarray([...CERT_SEEDS]),
    prune: fc.boolean(),
    seed: fc.integer(),
  })
  .chain((shape) => {
    const objAttrs = (kind: ResourceType, names: string[]) => fc.tuple(...names.map(() => attributes(kind)));
    const desiredAttrs = fc.record(Object.fromEntries(NAMED_KINDS.map((k) => [k, objAttrs(k, shape.desiredNames[k])])) as Record<ResourceType, fc.Arbitrary<Record<string, unknown>[]>>);
    const liveAttrs = fc.record(
      Object.fromEntries(NAMED_KINDS.map((k) => [k, fc.tuple(...shape.liveNames[k].map(() => fc.tuple(attributes(k), fc.boolean())))])) as Record<
        ResourceType,
        fc.Arbitrary<[Record<string, unknown>, boolean][]>
      >,
    );
    const certAttrs = fc.tuple(...shape.desiredCerts.map(() => fc.record({ certType: fc.constantFrom('SERVER_CERT', 'CLIENT_CERT'), privateKey: secret })));
    const liveCertAttrs = fc.tuple(...shape.liveCerts.map(() => fc.constantFrom('SERVER_CERT', 'CLIENT_CERT')));
    // relationship declarations: per desired object and relationship, undefined (not declared) or a target list
    const declarations = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.option(fc.array(fc.nat(), { maxLength: 3 }), { nil: undefined })), { maxLength: 12 });
    const liveLinks = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat()), { maxLength: 10 });
    return fc.record({ shape: fc.constant(shape), desiredAttrs, liveAttrs, certAttrs, liveCertAttrs, declarations, liveLinks });
  })
  .map(({ shape, desiredAttrs, liveAttrs, certAttrs, liveCertAttrs, declarations, liveLinks }) => {
    // desired documents
    const docsByKind = new Map<ResourceType, { name: string; attributes: Record<string, unknown>; relationships: Record<string, string[]> }[]>();
    for (const k of NAMED_KINDS) {
      docsByKind.set(k, shape.desiredNames[k].map((name, i) => ({ name, attributes: desiredAttrs[k][i] ?? {}, relationships: {} })));
    }
    docsByKind.set(
      'ssl-certificate',
      shape.desiredCerts.map((seed, i) => ({ name: `cert-${seed}`, attributes: { certificate: pem(seed), ...certAttrs[i] }, relationships: {} })),
    );
    // targets a desired link may name: desired objects and live named objects (none of a kind
    // identified by another attribute than its name or PEM, such as a node's hostName: this
    // property generates no objects of it)
    const targetsOf = (kind: ResourceType): string[] =>
      kind === 'ssl-certificate'
        ? shape.desiredCerts.map((s) => `cert-${s}`)
        : NAMED_KINDS.includes(kind)
          ? [...new Set([...shape.desiredNames[kind], ...shape.liveNames[kind]])].sort()
          : [];
    const allDocs = KINDS.flatMap((k) => (docsByKind.get(k.type) ?? []).map((d) => ({ kind: k.type, d })));
    const toOne = new Map<string, string>(); // `${vhost}\0${rel}` → target, to keep to-one declarations consistent
    const ordered = [...declarations].sort((x, y) => kindOrder(allDocs[x[0] % Math.max(1, allDocs.length)]?.kind) - kindOrder(allDocs[y[0] % Math.max(1, allDocs.length)]?.kind));
    for (const [which, relIndex, targets] of ordered) {
      const entry = allDocs[which % Math.max(1, allDocs.length)];
      if (!entry) continue;
      const rels = Object.values(kindOf(entry.kind).relationships);
      const def = rels[relIndex % rels.length];
      if (!def) continue;
      const pool = targetsOf(def.target);
      let names = [...new Set((targets ?? []).map((t) => pool[t % Math.max(1, pool.length)]).filter((n): n is string => n !== undefined))];
      if (def.cardinality === 'one') {
        names = names.slice(0, 1).filter((n) => {
          const held = toOne.get(`${entry.d.name}\u0000${def.name}`);
          return held === undefined || held === n;
        });
        for (const n of names) toOne.set(`${entry.d.name}\u0000${def.name}`, n);
      } else if (kindOf(def.target).relationships[def.inverse]?.cardinality === 'one') {
        names = names.filter((vhost) => {
          const held = toOne.get(`${vhost}\u0000${def.inverse}`);
          if (held !== undefined && held !== entry.d.name) return false;
          toOne.set(`${vhost}\u0000${def.inverse}`, entry.d.name);
          return true;
        });
      }
      entry.d.relationships[def.name] = names;
    }
    const docs = allDocs.map(({ kind, d }) => doc(kind, d.name, d.attributes, d.relationships));

    // live lists: ids, attributes (sometimes equal to desired on the declared part), links
    let nextId = 1;
    const stored: { kind: ResourceType; id: string; attributes: Record<string, unknown>; relationships: Record<string, string[]> }[] = [];
    for (const k of NAMED_KINDS) {
      shape.liveNames[k].forEach((name, i) => {
        const [attrs, same] = liveAttrs[k][i] ?? [{}, false];
        const declared = docsByKind.get(k)?.find((d) => d.name === name)?.attributes;
        const base = same && declared ? (merge(attrs, declared) as Record<string, unknown>) : attrs;
        stored.push({ kind: k, id: String(nextId++), attributes: { ...base, name }, relationships: {} });
      });
    }
    shape.liveCerts.forEach((seed, i) => {
      stored.push({ kind: 'ssl-certificate', id: String(nextId++), attributes: { certificate: pem(seed), certType: liveCertAttrs[i] ?? 'SERVER_CERT' }, relationships: {} });
    });
    for (const [x, r, y] of liveLinks) {
      const from = stored[x % Math.max(1, stored.length)];
      if (!from) continue;
      const rels = Object.values(kindOf(from.kind).relationships);
      const def = rels[r % rels.length];
      if (!def) continue;
      const candidates = stored.filter((s) => s.kind === def.target);
      const to = candidates[y % Math.max(1, candidates.length)];
      if (!to) continue;
      const inverse = kindOf(def.target).relationships[def.inverse];
      if ((from.relationships[def.name] ?? []).includes(to.id)) continue;
      if (def.cardinality === 'one' && (from.relationships[def.name] ?? []).length > 0) continue;
      if (inverse?.cardinality === 'one' && (to.relationships[def.inverse] ?? []).length > 0) continue;
      from.relationships[def.name] = [...(from.relationships[def.name] ?? []), to.id];
      to.relationships[def.inverse] = [...(to.relationships[def.inverse] ?? []), from.id];
    }
    const lists: Partial<Record<ResourceType, ApiResource[]>> = {};
    for (const s of stored) {
      const relationships: Record<string, RelationshipData> = {};
      for (const def of Object.values(kindOf(s.kind).relationships)) {
        const idents = (s.relationships[def.name] ?? []).map((id) => ({ type: def.target, id }));
        relationships[def.name] = { data: def.cardinality === 'one' ? (idents[0] ?? null) : idents };
      }
      (lists[s.kind] ??= []).push({ type: s.kind, id: s.id, attributes: s.attributes, relationships });
    }
    return { docs, lists, prune: shape.prune };
  });

function kindOrder(kind: ResourceType | undefined): number {
  // declarations of virtual hosts first, so their to-one targets win over the other side's
  return kind === 'virtual-host' ? 0 : 1;
}

const isOwned = (o: { name: string }): boolean => o.name.startsWith('o') || o.name.startsWith('sha256:');

/** Declared ⊆ live, independently of the planner's own comparison: objects by declared keys, arrays by length and items. */
function contains(declared: unknown, live: unknown): boolean {
  if (typeof declared === 'object' && declared !== null && !Array.isArray(declared)) {
    if (typeof live !== 'object' || live === null || Array.isArray(live)) return false;
    return Object.entries(declared).every(([k, v]) => contains(v, (live as Record<string, unknown>)[k]));
  }
  if (Array.isArray(declared)) return Array.isArray(live) && live.length === declared.length && declared.every((v, i) => contains(v, live[i]));
  return declared === live;
}

function withoutWriteOnly(kind: ResourceType, attributes: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(attributes);
  for (const p of writeOnlyAttributes(kind)) {
    let parent: unknown = copy;
    for (const s of p.segments.slice(0, -1)) parent = typeof parent === 'object' && parent !== null ? (parent as Record<string, unknown>)[s] : undefined;
    const last = p.segments[p.segments.length - 1];
    if (typeof parent === 'object' && parent !== null && last !== undefined) delete (parent as Record<string, unknown>)[last];
  }
  return copy;
}

const key = (kind: string, name: string, rel: string): string => `${kind}\u0000${name}\u0000${rel}`;

function checkConverged(desired: State, live: State, prune: boolean): void {
  for (const [kind, objects] of desired.objects) {
    for (const object of objects.values()) {
      const got = live.objects.get(kind)?.get(object.name);
      expect(got, `${kind} ${object.name} exists`).toBeDefined();
      expect(contains(withoutWriteOnly(kind, object.attributes), got?.attributes), `${kind} ${object.name} attributes`).toBe(true);
    }
  }
  const linkText = (l: State['links'][number]) => `${l.from.kind}:${l.from.name} ${l.relationship} ${l.to.kind}:${l.to.name}`;
  const liveLinks = new Set(live.links.map(linkText));
  for (const l of desired.links) expect(liveLinks.has(linkText(l)), `desired link ${linkText(l)}`).toBe(true);
  const declared = new Set((desired.declaredRelationships ?? []).map((d) => key(d.object.kind, d.object.name, d.relationship)));
  const desiredLinks = new Set(desired.links.map(linkText));
  for (const l of live.links) {
    const def = kindOf(l.from.kind).relationships[l.relationship];
    const managed = declared.has(key(l.from.kind, l.from.name, l.relationship)) || declared.has(key(l.to.kind, l.to.name, def?.inverse ?? ''));
    if (managed) expect(desiredLinks.has(linkText(l)), `managed live link ${linkText(l)} is desired`).toBe(true);
  }
  if (prune) {
    const referenced = new Set(desired.links.flatMap((l) => [`${l.from.kind}:${l.from.name}`, `${l.to.kind}:${l.to.name}`]));
    for (const [kind, objects] of live.objects) {
      for (const object of objects.values()) {
        if (desired.objects.get(kind)?.has(object.name) || referenced.has(`${kind}:${object.name}`)) continue;
        expect(isOwned(object), `${kind} ${object.name} survives pruning only when not owned`).toBe(false);
      }
    }
  }
}

describe('plan property', () => {
  it('executing the plan converges live to desired, and a second plan is empty', () => {
    fc.assert(
      fc.property(world, ({ docs, lists, prune }) => {
        const desired = desiredState(docs);
        const handles = identityHandles(desired);
        const live = liveState(lists, handles);
        const options = { prune, isOwned, allowMassDelete: true, massDeleteShare: 0.5 };
        const plan = buildPlan(desired, live, options);

        const json = JSON.stringify(plan);
        expect(JSON.parse(json)).toEqual(plan);
        expect(buildPlan(desired, live, options)).toEqual(plan);
        // The states record the sets and maps they keyed their links with; states whose link arrays are copies carry none and key them anew.
        const bare = (state: State): State => ({ ...state, links: [...state.links] });
        expect(buildPlan(bare(desired), bare(live), options)).toEqual(plan);
        for (const links of [desired.links, live.links]) {
          const lookup = linkKeyLookup(links);
          for (const key of linkKeysOf(links)) expect(lookup.has(key)).toBe(true);
          for (const other of [...desired.links, ...live.links].map(linkKey)) expect(lookup.has(other)).toBe(links.some((l) => linkKey(l) === other));
        }
        for (const out of [json, renderText(plan, { color: true }), renderMarkdown(plan), renderJson(plan)]) expect(out).not.toMatch(/SECRET-VALUE/);

        const gateway = new FakeGateway(lists);
        gateway.apply(plan, desired);
        const after = liveState(gateway.lists(), handles);
        checkConverged(desired, after, prune);
        const again = buildPlan(desired, after, options);
        expect(again.steps).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('the mass-delete guard refuses exactly when pruning would delete all, or more than the share, of a kind', () => {
    fc.assert(
      fc.property(world, fc.double({ min: 0, max: 1, noNaN: true }), ({ docs, lists }, share) => {
        const desired = desiredState(docs);
        const live = liveState(lists, identityHandles(desired));
        const allowed = buildPlan(desired, live, { prune: true, isOwned, allowMassDelete: true, massDeleteShare: share });
        const tooMany = [...live.objects].some(([kind, objects]) => {
          const owned = [...objects.values()].filter(isOwned).length;
          const pruned = allowed.steps.filter((s) => s.action === 'delete' && s.cause === 'prune' && s.kind === kind).length;
          return pruned > 0 && (pruned === owned || pruned > owned * share);
        });
        let refused = false;
        try {
          expect(buildPlan(desired, live, { prune: true, isOwned, allowMassDelete: false, massDeleteShare: share })).toEqual(allowed);
        } catch (error) {
          if (!(error instanceof MassDeleteError)) throw error;
          refused = true;
        }
        expect(refused).toBe(tooMany);
      }),
      { numRuns: 200 },
    );
  });
});
