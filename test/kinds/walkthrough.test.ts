/**
 * Every registered kind that exists in the latest variant walks through its life on the
 * emulator, through the real CLI (`gwops apply --yes`, then `gwops drift`, which must find
 * nothing): create, update, link and unlink through each of its canonical relationships
 * (the side gwops sends link calls from) that exists in the latest variant, delete (prune).
 * The emulator's active configuration confirms each step.
 *
 * The test names no kind: it iterates the registry and takes each object from its kind's
 * example (`KIND_EXAMPLES`, test/support/kind-examples.ts, which the typecheck requires for
 * every registered kind), so a new kind is covered once it is registered. An example that needs companions to be valid says so in
 * `requires`; they are created with it, from their own kinds' examples. Link targets are
 * example objects of the target kind too. Objects of one kind's walk keep their names
 * (`walk-<type>`, `...-needs-<relationship>`, `...-links-<relationship>`) and stay on the
 * gateway afterwards, unowned, so drift ignores them in the next walk.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { KindDefinition, RelationshipDefinition } from '../../src/kinds/index.js';
import { KINDS, kindExistsIn, kindOf, relationshipNamed, relationshipsIn } from '../../src/kinds/index.js';
import type { KindAttributes } from '../../src/kinds/kind.js';
import type { AttributePath } from '../../src/schema/index.js';
import { secretAttributes, writeOnlyAttributes } from '../../src/schema/index.js';
import type { Harness } from '../e2e/harness.js';
import { useHarness, writeManifests } from '../e2e/harness.js';
import type { ExampleFixtures, KindExample } from '../support/kind-examples.js';
import { hasUpdatableAttributes, KIND_EXAMPLES } from '../support/kind-examples.js';

const VARIANT = 'latest';

/** The kinds walked: every kind of the registry that exists in the latest variant. */
const WALKED = KINDS.filter((k) => kindExistsIn(k, VARIANT));

/** The relationships a walk links and unlinks: canonical, existing in the variant, to a kind that exists in it. */
function walkedRelationships(kind: KindDefinition): RelationshipDefinition[] {
  return relationshipsIn(kind, VARIANT).filter((r) => r.canonical && kindExistsIn(kindOf(r.target), VARIANT));
}

/** The fixtures the example hooks may ask for: certificates from `selfsigned`. */
const fixtures: ExampleFixtures = {
  async certificate(commonName) {
    const now = Date.now();
    const pems = await generate([{ name: 'commonName', value: commonName }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 60_000),
      notAfterDate: new Date(now + 365 * 24 * 3600 * 1000),
    });
    return { certificate: pems.cert, privateKey: pems.private };
  },
};

/** One example object and the companions it requires (each an example object of its own). */
interface ExampleObject {
  readonly kind: KindDefinition;
  readonly name: string;
  readonly example: KindExample;
  /** Companions by the relationship (of this object's kind) that links them. */
  readonly needs: ReadonlyMap<RelationshipDefinition, ExampleObject>;
}

/** Calls the kind's example hook once for `name`, and those of the companions it requires. */
async function exampleObject(kind: KindDefinition, name: string): Promise<ExampleObject> {
  const example = await KIND_EXAMPLES[kind.type](name, fixtures);
  const needs = new Map<RelationshipDefinition, ExampleObject>();
  for (const { relationship } of example.requires ?? []) {
    const rel = relationshipNamed(kind, relationship);
    if (!rel || !relationshipsIn(kind, VARIANT).includes(rel)) {
      throw new Error(`the example of ${kind.type} requires '${relationship}', which is no relationship of the kind in the ${VARIANT} variant`);
    }
    needs.set(rel, await exampleObject(kindOf(rel.target), `${name}-needs-${rel.name}`));
  }
  // A singleton is named by its kind (its documents have no name: src/kinds/identity.ts singletonIdentity).
  return { kind, name: kind.singleton ? kind.type : name, example, needs };
}

/** The object and its companions, theirs included (names are unique: each appears once). */
function withCompanions(object: ExampleObject): ExampleObject[] {
  return [object, ...[...object.needs.values()].flatMap(withCompanions)];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` with the attribute at `segments` (`*`: every array item) replaced by `replace(found)` where it exists (removed when that is undefined). */
function replaceAt(value: unknown, segments: readonly string[], replace: (found: unknown) => unknown): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return replace(value);
  if (head === '*') return Array.isArray(value) ? value.map((item) => replaceAt(item, rest, replace)) : value;
  if (!isPlainObject(value) || !Object.hasOwn(value, head)) return value;
  const out: Record<string, unknown> = { ...value };
  const next = replaceAt(value[head], rest, replace);
  if (next === undefined) delete out[head];
  else out[head] = next;
  return out;
}

function replaceAll(attributes: KindAttributes, paths: readonly AttributePath[], replace: (found: unknown, path: AttributePath) => unknown): KindAttributes {
  let out: unknown = attributes;
  for (const path of paths) out = replaceAt(out, path.segments, (found) => replace(found, path));
  return out as KindAttributes;
}

/**
 * True when `live` holds everything of `expected`: objects member by member, lists item by
 * item with the same length (the gateway completes list items with defaults), scalars
 * equal.
 */
function contains(live: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) return Array.isArray(live) && live.length === expected.length && expected.every((e, i) => contains(live[i], e));
  if (isPlainObject(expected)) return isPlainObject(live) && Object.entries(expected).every(([k, e]) => Object.hasOwn(live, k) && contains(live[k], e));
  return live === expected;
}

/** A resource object of the emulator's active configuration. */
interface LiveObject {
  readonly type: string;
  readonly id: string;
  readonly attributes: Record<string, Json>;
  readonly relationships: Record<string, { data: unknown }>;
}

/** The emulator's active configuration (`activeSnapshot()`). */
interface Snapshot {
  readonly comment?: string;
  readonly objects: readonly LiveObject[];
}

function activeObjects(h: Harness): Snapshot {
  return h.emulator.activeSnapshot() as Snapshot;
}

/** The ids `resource` links through `relationship` (to-one: zero or one). */
function linkedIds(resource: LiveObject, relationship: string): string[] {
  const data = resource.relationships[relationship]?.data;
  const ids = (Array.isArray(data) ? data : [data]).map((d) => (isPlainObject(d) && typeof d.id === 'string' ? d.id : undefined));
  return ids.filter((id): id is string => id !== undefined);
}

/** The manifests and checks of one kind's walk. */
class Walk {
  /** Objects declared next to the subject (its companions, link targets and theirs), by name. */
  private readonly others = new Map<string, ExampleObject>();
  /** The subject's current attributes (the example's, then updated). */
  private attributes: KindAttributes;
  /** Declared links of the subject beyond those it requires. */
  private readonly links = new Map<RelationshipDefinition, ExampleObject>();
  /**
   * Relationships of the subject that stay declared after an unlink: a relationship declared
   * on neither side is left alone, so an unlink declares it without the target (`[]`), or,
   * for a to-one relationship (no empty value), declares the target's inverse empty.
   */
  private readonly unlinked = new Map<RelationshipDefinition, ExampleObject>();
  private declared = true;
  /** Ownership of the subject's kind: its id once created, so that the delete step may prune it. */
  private owned: string | undefined;
  private steps = 0;

  constructor(
    private readonly t: { readonly h: Harness },
    readonly subject: ExampleObject,
  ) {
    this.attributes = subject.example.attributes;
    for (const companion of [...subject.needs.values()].flatMap(withCompanions)) this.others.set(companion.name, companion);
  }

  get kind(): KindDefinition {
    return this.subject.kind;
  }

  /** Declares a link of the subject to `target` (and the target's documents) from the next step on. */
  link(rel: RelationshipDefinition, target: ExampleObject): void {
    this.links.set(rel, target);
    this.unlinked.delete(rel);
    for (const o of withCompanions(target)) this.others.set(o.name, o);
  }

  /** Removes the link through `rel` from the next step on (its target stays declared). */
  unlink(rel: RelationshipDefinition): void {
    const target = this.links.get(rel);
    if (!target) return;
    const inverse = kindOf(rel.target).relationships[rel.inverse];
    if (rel.cardinality === 'one' && !this.subject.needs.has(rel) && inverse?.cardinality !== 'many') {
      throw new Error(`${this.kind.type}.${rel.name}: a one-to-one link without a replacement cannot be declared away`);
    }
    this.links.delete(rel);
    this.unlinked.set(rel, target);
  }

  update(): void {
    this.attributes = { ...this.attributes, ...this.subject.example.update };
  }

  remove(): void {
    this.declared = false;
  }

  /**
   * The attributes the subject is expected to show on the gateway now: write-only ones left
   * out, readable secrets as read from their files (`{ fromFile }` drops the final line break).
   */
  expected(attributes: KindAttributes = this.attributes): KindAttributes {
    const fromFiles = replaceAll(attributes, secretAttributes(this.kind.type), (found) => (typeof found === 'string' ? found.replace(/(\r?\n)+$/, '') : found));
    return replaceAll(fromFiles, writeOnlyAttributes(this.kind.type), () => undefined);
  }

  /** `attributes` with secret values written to files and declared as `{ fromFile }`. */
  private declare(object: ExampleObject, attributes: KindAttributes): KindAttributes {
    const dir = join(this.t.h.dir, 'walk-secrets');
    mkdirSync(dir, { recursive: true });
    return replaceAll(attributes, secretAttributes(object.kind.type), (found, path) => {
      if (typeof found !== 'string') return found;
      const file = join(dir, `${object.name}-${path.segments.join('.')}.txt`);
      writeFileSync(file, found, { mode: 0o600 });
      return { fromFile: file };
    });
  }

  /**
   * The document of `object`: its needs, plus for the subject its links and the
   * relationships it unlinked; a link target whose to-one link was removed declares its
   * inverse empty.
   */
  private document(object: ExampleObject, attributes: KindAttributes): unknown {
    const subject = object === this.subject;
    const relationships: Record<string, string | string[]> = {};
    const rels = new Set([...object.needs.keys(), ...(subject ? [...this.links.keys(), ...this.unlinked.keys()] : [])]);
    for (const rel of rels) {
      const needed = object.needs.get(rel);
      const linked = subject ? this.links.get(rel) : undefined;
      // A to-one link made on top of a required one replaces it.
      const names = rel.cardinality === 'one' && linked ? [linked.name] : [needed, linked].flatMap((o) => (o ? [o.name] : []));
      const [first] = names;
      if (rel.cardinality === 'many') relationships[rel.name] = names;
      else if (first !== undefined) relationships[rel.name] = first;
    }
    for (const [rel, target] of this.unlinked) {
      if (target === object && rel.cardinality === 'one' && !this.subject.needs.has(rel)) relationships[rel.inverse] = [];
    }
    return {
      apiVersion: 'gwops/v1',
      kind: object.kind.type,
      ...(object.kind.singleton ? {} : { name: object.name }),
      attributes: this.declare(object, attributes),
      ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
    };
  }

  private manifests(): string {
    const documents = [...this.others.values()].map((o) => this.document(o, o.example.attributes));
    if (this.declared) documents.unshift(this.document(this.subject, this.attributes));
    return documents.map((d) => stringify(d)).join('---\n');
  }

  /**
   * Applies the current manifests (`--prune` for the delete step), then checks that drift
   * finds nothing; returns the active configuration.
   */
  async apply(step: string, flags: readonly string[] = []): Promise<readonly LiveObject[]> {
    const h = this.t.h;
    const label = `walk-${this.kind.type}-${++this.steps}-${step}`;
    const folder = await writeManifests(h, label, { 'walk.yaml': this.manifests() });
    const ownership = this.owned === undefined ? {} : { [this.kind.type]: [`id==${this.owned}`] };
    const projectDir = await writeManifests(h, `${label}-project`, { 'gwops.yaml': stringify({ ownership }) });
    const config = ['--config', join(projectDir, 'gwops.yaml'), ...h.connection];
    const comment = label;
    const apply = await h.cli(['apply', '--yes', ...config, '--comment', comment, ...flags, folder]);
    expect(apply.code, `${step}: ${apply.stdout}${apply.stderr}`).toBe(0);
    const snapshot = activeObjects(h);
    // A step that changed nothing would not have activated.
    // The comment given, with the project trailer gwops adds (commit-comment.ts withProjectTrailer).
    expect(snapshot.comment, `${step}: activated`).toMatch(new RegExp(`^${comment} gwops-project=[0-9a-f]{12}$`));
    const drift = await h.cli(['drift', ...config, folder]);
    expect(drift.code, `${step} drift: ${drift.stdout}${drift.stderr}`).toBe(0);
    return snapshot.objects;
  }

  /**
   * Plans the current manifests with `flags` and checks that the plan is empty (a singleton
   * that no manifest declares any more: neither deleted nor changed).
   */
  async planNothing(step: string, flags: readonly string[] = []): Promise<void> {
    const h = this.t.h;
    const label = `walk-${this.kind.type}-${++this.steps}-${step}`;
    const folder = await writeManifests(h, label, { 'walk.yaml': this.manifests() });
    const plan = await h.cli(['plan', '--detailed-exitcode', '--config', join(await writeManifests(h, `${label}-project`, { 'gwops.yaml': '{}\n' }), 'gwops.yaml'), ...h.connection, ...flags, folder]);
    expect(plan.code, `${step}: ${plan.stdout}${plan.stderr}`).toBe(0);
  }

  /** The live object of `object` (matched by the kind's identity), or undefined. */
  static find(objects: readonly LiveObject[], object: ExampleObject): LiveObject | undefined {
    const identity = object.kind.identity;
    const declared = identity.declared(object.example.attributes);
    if (declared && 'problem' in declared) throw new Error(`the example of ${object.kind.type} has no identity: ${declared.problem}`);
    const handleOf = (key: string): string | undefined => (key === declared?.key ? object.name : undefined);
    const found = objects.filter((o) => o.type === object.kind.type && identity.live(o.attributes, handleOf).name === object.name);
    expect(found.length, `${object.kind.type} '${object.name}' at most once`).toBeLessThanOrEqual(1);
    return found[0];
  }

  static get(objects: readonly LiveObject[], object: ExampleObject): LiveObject {
    const found = Walk.find(objects, object);
    if (!found) throw new Error(`${object.kind.type} '${object.name}' is not in the active configuration`);
    return found;
  }

  own(id: string): void {
    this.owned = id;
  }
}

describe('the walkthrough of every registered kind', () => {
  const t = useHarness({ variant: VARIANT });

  it('walks every kind of the registry that exists in the latest variant', () => {
    expect(WALKED.length).toBeGreaterThan(0);
    for (const kind of WALKED) expect(typeof KIND_EXAMPLES[kind.type], kind.type).toBe('function');
  });

  describe.each(WALKED.map((k) => [k.type, k] as const))('%s', (type, kind) => {
    let walk: Walk | undefined;
    const current = (): Walk => {
      if (!walk) throw new Error(`the walk of ${type} starts with its create step`);
      return walk;
    };

    it('create: the example object and the companions it requires', async () => {
      walk = new Walk(t, await exampleObject(kind, `walk-${type}`));
      if (kind.singleton && Object.keys(walk.subject.example.attributes).length === 0) {
        // A singleton whose attribute names nobody knows: its document declares the kind only, which changes nothing.
        await walk.planNothing('create');
        return;
      }
      const objects = await walk.apply('create');
      const live = Walk.get(objects, walk.subject);
      expect(contains(live.attributes, walk.expected()), JSON.stringify(live.attributes)).toBe(true);
      for (const [rel, companion] of walk.subject.needs) expect(linkedIds(live, rel.name)).toContain(Walk.get(objects, companion).id);
      // A singleton is owned by whoever declares it (its one object is never pruned).
      if (!kind.singleton) walk.own(live.id);
    });

    it.skipIf(hasUpdatableAttributes(type))('update: none, the only attribute is the name (the identity)', () => {
      expect(current().subject.example.update).toEqual({});
    });

    it.runIf(hasUpdatableAttributes(type))('update: one attribute change', async () => {
      const w = current();
      const update = w.expected(w.subject.example.update);
      expect(Object.keys(w.subject.example.update).length, 'the example names an update').toBeGreaterThan(0);
      const before = Walk.get(activeObjects(t.h).objects, w.subject);
      expect(contains(before.attributes, update), 'the update changes something').toBe(false);
      w.update();
      const after = Walk.get(await w.apply('update'), w.subject);
      expect(after.id).toBe(before.id);
      expect(contains(after.attributes, w.expected()), JSON.stringify(after.attributes)).toBe(true);
    });

    for (const rel of walkedRelationships(kind)) {
      it(`link and unlink: ${rel.name} (to ${rel.target})`, async () => {
        const w = current();
        const target = await exampleObject(kindOf(rel.target), `walk-${type}-links-${rel.name}`);
        w.link(rel, target);
        let objects = await w.apply(`link-${rel.name}`);
        let subject = Walk.get(objects, w.subject);
        const targetId = Walk.get(objects, target).id;
        expect(linkedIds(subject, rel.name)).toContain(targetId);
        expect(linkedIds(Walk.get(objects, target), rel.inverse)).toContain(subject.id);

        w.unlink(rel);
        objects = await w.apply(`unlink-${rel.name}`);
        subject = Walk.get(objects, w.subject);
        expect(linkedIds(subject, rel.name)).not.toContain(targetId);
        expect(linkedIds(Walk.get(objects, target), rel.inverse)).not.toContain(subject.id);
        // What the object requires stays linked.
        const needed = w.subject.needs.get(rel);
        if (needed) expect(linkedIds(subject, rel.name)).toContain(Walk.get(objects, needed).id);
      });
    }

    it.runIf(kind.singleton !== undefined)('delete: never; a singleton no manifest declares is left as it is, --prune too', async () => {
      const w = current();
      const before = Walk.find(activeObjects(t.h).objects, w.subject);
      w.remove();
      await w.planNothing('delete', ['--prune', '--allow-mass-delete', '--allow-empty']);
      expect(Walk.find(activeObjects(t.h).objects, w.subject)).toEqual(before);
    });

    it.runIf(kind.singleton === undefined)('delete: pruned once no manifest declares it', async () => {
      const w = current();
      w.remove();
      const objects = await w.apply('delete', ['--prune', '--allow-mass-delete', '--allow-empty']);
      expect(Walk.find(objects, w.subject)).toBeUndefined();
      for (const companion of w.subject.needs.values()) expect(Walk.find(objects, companion)).toBeDefined();
    });
  });
});
