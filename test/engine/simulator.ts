/**
 * A pure simulator of the gateway for property tests: holds objects and links like the API
 * does (both sides of a link, to-one links replace, deleting an object removes its links,
 * PATCH deep-merges objects and replaces arrays, write-only attributes are never read back)
 * and executes a Plan's calls from their data alone (method, path, bodies, secretPaths), as
 * the executor does. It never looks at `action`, `kind` or `name` to decide what to do.
 */
import type { RelationshipData } from '../../src/gateway/index.js';
import { kindByCollection, kindOf, relationshipNamed } from '../../src/kinds/index.js';
import type { ResourceType } from '../../src/kinds/index.js';
import type { ApiResource } from '../../src/engine/live.js';
import type { State } from '../../src/engine/model.js';
import type { Plan } from '../../src/engine/plan-types.js';
import { SENSITIVE_MASK, idPlaceholder } from '../../src/engine/plan-types.js';
import { writeOnlyAttributes } from '../../src/schema/index.js';

interface Stored {
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, string[]>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** PATCH rule: objects merge recursively, arrays and scalars replace. */
export function merge(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = merge(base[k], v);
  return out;
}

function decodePointer(pointer: string): string[] {
  return pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function getAt(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const s of segments) current = isObject(current) || Array.isArray(current) ? (current as Record<string, unknown>)[s] : undefined;
  return current;
}

function setAt(value: unknown, segments: readonly string[], leaf: unknown): void {
  const parent = getAt(value, segments.slice(0, -1));
  const last = segments[segments.length - 1];
  if ((isObject(parent) || Array.isArray(parent)) && last !== undefined) (parent as Record<string, unknown>)[last] = leaf;
}

/** Problems found while executing (a plan that a strict executor would reject). */
export class SimulationError extends Error {}

export class FakeGateway {
  private readonly objects = new Map<ResourceType, Map<string, Stored>>();
  private nextId = 1000;

  /** Loads lists as `liveState` would receive them (relationships on both sides expected). */
  constructor(lists: Partial<Record<ResourceType, readonly ApiResource[]>>) {
    for (const [type, resources] of Object.entries(lists) as [ResourceType, readonly ApiResource[]][]) {
      const map = new Map<string, Stored>();
      for (const r of resources) {
        const relationships: Record<string, string[]> = {};
        for (const [name, member] of Object.entries(r.relationships ?? {})) {
          const data = member.data;
          relationships[name] = data === null ? [] : (Array.isArray(data) ? data : [data]).map((d) => d.id);
        }
        map.set(r.id, { id: r.id, attributes: structuredClone(r.attributes), relationships });
      }
      this.objects.set(type, map);
    }
  }

  private map(type: ResourceType): Map<string, Stored> {
    let m = this.objects.get(type);
    if (!m) {
      m = new Map();
      this.objects.set(type, m);
    }
    return m;
  }

  /** The GET lists: write-only attributes removed, every relationship of the kind present. */
  lists(): Partial<Record<ResourceType, ApiResource[]>> {
    const out: Partial<Record<ResourceType, ApiResource[]>> = {};
    for (const [type, map] of this.objects) {
      out[type] = [...map.values()].map((o) => {
        const attributes = structuredClone(o.attributes);
        for (const p of writeOnlyAttributes(type)) {
          const parent = getAt(attributes, p.segments.slice(0, -1));
          const last = p.segments[p.segments.length - 1];
          if (isObject(parent) && last !== undefined) delete parent[last];
        }
        const relationships: Record<string, RelationshipData> = {};
        for (const def of Object.values(kindOf(type).relationships)) {
          const ids = o.relationships[def.name] ?? [];
          const idents = ids.map((id) => ({ type: def.target, id }));
          relationships[def.name] = { data: def.cardinality === 'one' ? (idents[0] ?? null) : idents };
        }
        return { type, id: o.id, attributes, relationships };
      });
    }
    return out;
  }

  private unlinkPair(type: ResourceType, id: string, rel: string, targetId: string): void {
    const def = kindOf(type).relationships[rel];
    if (!def) throw new SimulationError(`no relationship ${type}.${rel}`);
    const a = this.map(type).get(id);
    const b = this.map(def.target).get(targetId);
    if (a) a.relationships[rel] = (a.relationships[rel] ?? []).filter((x) => x !== targetId);
    if (b) b.relationships[def.inverse] = (b.relationships[def.inverse] ?? []).filter((x) => x !== id);
  }

  private linkPair(type: ResourceType, id: string, rel: string, targetId: string): void {
    const def = kindOf(type).relationships[rel];
    if (!def) throw new SimulationError(`no relationship ${type}.${rel}`);
    const a = this.map(type).get(id);
    const b = this.map(def.target).get(targetId);
    if (!a || !b) throw new SimulationError(`link between missing objects ${type}/${id} ${rel} ${targetId}`);
    if ((a.relationships[rel] ?? []).includes(targetId)) return;
    if (def.cardinality === 'one') for (const old of a.relationships[rel] ?? []) this.unlinkPair(type, id, rel, old);
    const inverse = kindOf(def.target).relationships[def.inverse];
    if (inverse?.cardinality === 'one') for (const old of b.relationships[def.inverse] ?? []) this.unlinkPair(def.target, targetId, def.inverse, old);
    a.relationships[rel] = [...(a.relationships[rel] ?? []), targetId];
    b.relationships[def.inverse] = [...(b.relationships[def.inverse] ?? []), id];
  }

  /**
   * Sends every call of `plan` (`Plan.calls`), refilling secrets from `desired`: an object
   * call sends the body of the step it carries first, a create also its `relationships`.
   * Checks that the calls carry every step exactly once.
   */
  apply(plan: Plan, desired: State): void {
    const ids = new Map<string, string>();
    const substitute = (text: string): string => {
      let out = text;
      for (const [placeholder, id] of ids) out = out.split(placeholder).join(id);
      if (/\{[a-z0-9-]+:[^}]*\}/.test(out)) throw new SimulationError(`unresolved placeholder in ${out}`);
      return out;
    };
    for (const [i, step] of plan.steps.entries()) if (step.index !== i + 1) throw new SimulationError(`step ${i + 1} has index ${step.index}`);
    const carried = plan.calls.flatMap((c) => c.steps).sort((a, b) => a - b);
    if (JSON.stringify(carried) !== JSON.stringify(plan.steps.map((s) => s.index))) throw new SimulationError(`calls carry steps ${carried.join(',')}`);
    const relate = (method: string, type: ResourceType, id: string, rel: string, data: unknown): void => {
      const idents = Array.isArray(data) ? data : [data];
      // Calls go to a relationship's link endpoint when it has one (`mappings-blacklist`).
      const def = relationshipNamed(kindOf(type), rel);
      if (!def) throw new SimulationError(`no relationship ${type}.${rel}`);
      if (def.cardinality === 'one' && (Array.isArray(data) || idents.length !== 1)) throw new SimulationError(`to-one ${type}.${rel} given ${JSON.stringify(data)}`);
      for (const ident of idents) {
        if (!isObject(ident) || typeof ident.id !== 'string' || ident.type !== def.target) throw new SimulationError('bad relationship body');
        const target = substitute(ident.id);
        if (method === 'PATCH') this.linkPair(type, id, def.name, target);
        else if (method === 'DELETE') this.unlinkPair(type, id, def.name, target);
        else throw new SimulationError(`bad method ${method}`);
      }
    };
    for (const [i, call] of plan.calls.entries()) {
      if (call.index !== i + 1) throw new SimulationError(`call ${i + 1} has index ${call.index}`);
      const split = substitute(call.path).split('/').filter(Boolean);
      // A collection may have several segments (`json-web-key-sets/remotes`, `routes/ipv4/source`): the longest that names one.
      const width = [3, 2, 1].find((n) => kindByCollection(split.slice(1, 1 + n).join('/'))) ?? 1;
      const parts = [split[0] ?? '', split.slice(1, 1 + width).join('/'), ...split.slice(1 + width)];
      const kind = kindByCollection(parts[1] ?? '');
      if (parts[0] !== 'configuration' || !kind) throw new SimulationError(`bad path ${call.path}`);
      if (call.endpoint === 'relationship') {
        if (parts.length !== 5 || parts[3] !== 'relationships') throw new SimulationError(`bad path ${call.path}`);
        const id = parts[2] ?? '';
        if (!this.map(kind.type).has(id)) throw new SimulationError(`no ${kind.type}/${id}`);
        relate(call.method, kind.type, id, parts[4] ?? '', call.body.data);
        continue;
      }
      if (call.endpoint === 'content') {
        // The simulated gateway keeps attributes and links only: an upload must name an object that exists.
        if (parts.length !== 4 || parts[3] !== 'content' || !this.map(kind.type).has(parts[2] ?? '')) throw new SimulationError(`bad content path ${call.path}`);
        continue;
      }
      const step = plan.steps[(call.steps[0] ?? 0) - 1];
      if (!step || !('path' in step) || step.path !== call.path) throw new SimulationError(`object call ${call.index} does not carry its object step first`);
      const body: unknown = step.body === undefined ? undefined : structuredClone(step.body);
      for (const pointer of step.secretPaths) {
        const segments = decodePointer(pointer);
        if (getAt(body, segments) !== SENSITIVE_MASK) throw new SimulationError(`secret path ${pointer} is not masked`);
        const object = desired.objects.get(step.kind)?.get(step.name);
        setAt(body, segments, getAt(object?.attributes, segments.slice(2)));
      }
      const data = isObject(body) ? body.data : undefined;
      if (parts.length === 2 && call.method === 'POST') {
        if (!isObject(data) || !isObject(data.attributes) || data.type !== kind.type) throw new SimulationError('bad create body');
        const id = String(this.nextId++);
        this.map(kind.type).set(id, { id, attributes: structuredClone(data.attributes), relationships: {} });
        ids.set(idPlaceholder({ kind: kind.type, name: call.name }), id);
        for (const [rel, member] of Object.entries(call.relationships ?? {})) {
          if (!(kindOf(kind.type).createRelationships ?? []).includes(rel)) throw new SimulationError(`${kind.type} takes no ${rel} in its create body`);
          relate('PATCH', kind.type, id, rel, member.data);
        }
      } else if (parts.length === 3) {
        if (call.relationships) throw new SimulationError('relationships in a non-create call');
        const id = parts[2] ?? '';
        const stored = this.map(kind.type).get(id);
        if (!stored) throw new SimulationError(`no ${kind.type}/${id}`);
        if (call.method === 'PATCH') {
          if (!isObject(data) || data.id !== id || !isObject(data.attributes) || Object.keys(data.attributes).length === 0) throw new SimulationError('bad PATCH body');
          stored.attributes = merge(stored.attributes, data.attributes) as Record<string, unknown>;
        } else if (call.method === 'DELETE') {
          for (const [rel, targets] of Object.entries(stored.relationships)) for (const t of targets) this.unlinkPair(kind.type, id, rel, t);
          this.map(kind.type).delete(id);
        } else throw new SimulationError(`bad method ${call.method}`);
      } else throw new SimulationError(`bad path ${call.path}`);
    }
  }
}
