/**
 * The picture of a plan draws every relationship `gwops graph` draws around the objects the
 * plan touches: the links of every kind's relationships and the attributes that name
 * another object (schema mark `x-gwops-reference`, e.g. a path whitelist's
 * `ipAddressListIds`). Walks every kind of the registry; nothing here names one.
 */
import { describe, expect, it } from 'vitest';
import { desiredState, identityHandles } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import type { ApiResource } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import { KINDS, kindOf } from '../../src/kinds/index.js';
import type { ResourceType } from '../../src/kinds/index.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import { referenceAttributes } from '../../src/schema/index.js';
import type { Topology } from '../../src/render/index.js';
import { planTopology, stateTopology } from '../../src/render/index.js';
import { doc, options, pem, resource } from '../engine/helpers.js';

/** `value` set at `segments` (`*`: an array of one item) below a new object. */
function at(segments: readonly string[], value: unknown): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return value;
  if (head === '*') return [at(rest, value)];
  return { [head]: at(rest, value) };
}

/** A document of `kind` named `name`: a kind whose identity is not its name gets it from a PEM certificate made for the test. */
function target(kind: ResourceType, name: string): ManifestDocument {
  const identity = kindOf(kind).identity;
  return doc(kind, name, identity.byName ? {} : Object.fromEntries(identity.attributes.map((attribute) => [attribute, pem(name)])));
}

/** Deep merge of plain objects (arrays and values of `b` win). */
function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const old = out[key];
    const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    out[key] = isObject(old) && isObject(value) ? merge(old, value) : value;
  }
  return out;
}

/**
 * An object of `kind` named `subject` that names an object through each of its reference
 * attributes and links one through each of its canonical relationships, and those objects.
 */
function subjectOf(kind: ResourceType): { subject: ManifestDocument; others: ManifestDocument[] } {
  const others: ManifestDocument[] = [];
  let attributes: Record<string, unknown> = {};
  referenceAttributes(kind).forEach((path, i) => {
    const to = path.schema['x-gwops-reference'] as ResourceType;
    const name = `named-${i}`;
    others.push(target(to, name));
    attributes = merge(attributes, at(path.segments, path.schema.type === 'array' ? [name] : name) as Record<string, unknown>);
  });
  const relationships: Record<string, string[]> = {};
  for (const relationship of Object.values(KINDS.find((k) => k.type === kind)?.relationships ?? {})) {
    if (!relationship.canonical) continue;
    const name = `linked-${relationship.name}`;
    others.push(target(relationship.target, name));
    relationships[relationship.name] = [name];
  }
  // Its identity as `target` gives one (a kind identified by another attribute than its name).
  return { subject: doc(kind, 'subject', merge(target(kind, 'subject').attributes, attributes), relationships), others };
}

/** The edges of a topology as `from -relationship-> to` lines. */
function edges(topology: Topology): string[] {
  return topology.edges.map((e) => `${e.from.kind}/${e.from.name} -${e.relationship}-> ${e.to.kind}/${e.to.name}`);
}

/** The live object of `document` (id `id`), as a GET list returns it. */
function liveOf(document: ManifestDocument, id: string): ApiResource {
  return resource(document.kind, id, { ...document.attributes, name: document.name });
}

describe('the picture of a plan draws every relationship gwops graph draws', () => {
  const kinds = KINDS.filter((k) => referenceAttributes(k.type).length > 0 || Object.values(k.relationships).some((r) => r.canonical));

  it('walks kinds with references and kinds with links', () => {
    expect(kinds.some((k) => referenceAttributes(k.type).length > 0)).toBe(true);
    expect(kinds.length).toBeGreaterThan(1);
  });

  it.each(kinds.map((k) => k.type))('%s created: every edge of its graph is in the plan picture', (kind) => {
    const { subject, others } = subjectOf(kind);
    const desired = desiredState([subject, ...others]);
    const live = liveState({}, identityHandles(desired));
    const plan = buildPlan(desired, live, options());
    const graph = edges(stateTopology(desired)).filter((e) => e.includes(`${kind}/subject`));
    expect(graph.length).toBeGreaterThan(0);
    expect(edges(planTopology(plan, desired, live))).toEqual(expect.arrayContaining(graph));
  });

  it.each(kinds.filter((k) => referenceAttributes(k.type).length > 0).map((k) => k.type))(
    '%s updated, the objects it names unchanged: their edges are drawn, a new reference as added',
    (kind) => {
      const { subject, others } = subjectOf(kind);
      const targets = others.filter((o) => kindOf(o.kind).identity.byName);
      const desired = desiredState([subject, ...targets]);
      // Live: the named objects as they are, the subject without its references (the update adds them).
      const resources: Partial<Record<ResourceType, ApiResource[]>> = {};
      targets.forEach((o, i) => (resources[o.kind] ??= []).push(liveOf(o, String(100 + i))));
      (resources[kind] ??= []).push(resource(kind, '1', { name: 'subject' }));
      const live = liveState(resources, identityHandles(desired));
      const plan = buildPlan(desired, live, options());
      const picture = planTopology(plan, desired, live);
      const references = stateTopology(desired).edges.filter((e) => e.from.name === 'subject' && e.from.kind === kind && e.relationship !== '' && referenceAttributes(kind).some((p) => p.segments.at(-1) === e.relationship));
      expect(references.length).toBeGreaterThan(0);
      for (const reference of references) {
        expect(picture.edges).toContainEqual({ from: reference.from, relationship: reference.relationship, to: reference.to, change: 'added' });
      }
    },
  );
});
