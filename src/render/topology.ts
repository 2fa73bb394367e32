/**
 * The topology pictures draw (docs/cli-reference.md "gwops graph", docs/ci-guide.md "The
 * picture of a change"): objects as nodes and links as edges in their canonical direction
 * (model.ts `Link`: virtual host → mapping → back-end group, virtual host → certificate),
 * so that nothing here names a kind; every kind of the registry takes part. Pure.
 */
import { KINDS, isResourceType } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import type { ObjectKey } from '../core/object-key.js';
import { objectKey } from '../core/object-key.js';
import type { Link, LinkKey, ObjectRef, State } from '../engine/model.js';
import { idOfUnknownRef, linkKey } from '../engine/model.js';
import type { Plan } from '../engine/plan-types.js';
import type { DriftDirection, DriftReport } from '../engine/drift-report.js';
import { attributeReferences } from '../schema/references.js';

/** What a plan does to a node's object. */
export type NodeChange = 'create' | 'update' | 'delete';

/** What a plan does to an edge's link. */
export type EdgeChange = 'added' | 'removed';

/** One object. */
export interface TopologyNode {
  readonly ref: ObjectRef;
  /** Absent: unchanged (a neighbour shown for context, or any object of `gwops graph`). */
  readonly change?: NodeChange;
}

/** One link, canonical direction. */
export interface TopologyEdge {
  readonly from: ObjectRef;
  /** The canonical side's relationship name. */
  readonly relationship: string;
  readonly to: ObjectRef;
  /** Absent: unchanged. */
  readonly change?: EdgeChange;
}

/** Nodes in registry order (KINDS) then by name (code points); edges by their link key. */
export interface Topology {
  readonly nodes: readonly TopologyNode[];
  readonly edges: readonly TopologyEdge[];
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const KIND_RANK = new Map<ResourceType, number>(KINDS.map((k, i) => [k.type, i]));

function sorted(nodes: Iterable<TopologyNode>, edges: Iterable<TopologyEdge & { key: LinkKey }>): Topology {
  return {
    nodes: [...nodes].sort((a, b) => (KIND_RANK.get(a.ref.kind) ?? 0) - (KIND_RANK.get(b.ref.kind) ?? 0) || compare(a.ref.name, b.ref.name)),
    edges: [...edges].sort((a, b) => compare(a.key, b.key)).map(({ key: _key, ...edge }) => edge),
  };
}

/** A live link end that is not among the fetched objects (`#id:<id>`) is not drawn. */
function drawable(link: Link): boolean {
  return idOfUnknownRef(link.from.name) === undefined && idOfUnknownRef(link.to.name) === undefined;
}

/**
 * The edges of attributes that name another object of the state (schema mark
 * `x-gwops-reference`, e.g. a path whitelist's `ipAddressListIds`): from the object to the
 * named one, labelled with the attribute's name. Names of no object of the state are not
 * drawn, nor a reference between two objects a link already joins.
 */
function referenceEdges(state: State): (TopologyEdge & { key: LinkKey })[] {
  const edges = new Map<LinkKey, TopologyEdge & { key: LinkKey }>();
  for (const objects of state.objects.values()) {
    for (const object of objects.values()) {
      for (const reference of attributeReferences(object.kind, object.attributes)) {
        const name = String(reference.value);
        if (!state.objects.get(reference.target)?.has(name)) continue;
        const relationship = reference.segments.filter((segment) => !/^\d+$/.test(segment)).at(-1) ?? '';
        const link: Link = { from: { kind: object.kind, name: object.name }, relationship, to: { kind: reference.target, name } };
        const key = linkKey(link);
        edges.set(key, { ...link, key });
      }
    }
  }
  return [...edges.values()];
}

/**
 * Every relationship of a state a picture draws: its drawable links, and its attributes
 * that name another object (see {@link referenceEdges}) unless a link already joins the
 * two. What `gwops graph` draws of a state, and what a plan's or a drift report's picture
 * draws around the objects they touch.
 */
function relationEdges(state: State): (TopologyEdge & { key: LinkKey; reference: boolean })[] {
  const edges = state.links.filter(drawable).map((link) => ({ from: link.from, relationship: link.relationship, to: link.to, key: linkKey(link), reference: false }));
  const ends = (edge: TopologyEdge): string => JSON.stringify([edge.from.kind, edge.from.name, edge.to.kind, edge.to.name]);
  const linked = new Set(edges.map(ends));
  return [...edges, ...referenceEdges(state).filter((edge) => !linked.has(ends(edge))).map((edge) => ({ ...edge, reference: true }))];
}

/**
 * Every object and link of a state (the managed topology of `gwops graph`), nothing marked;
 * attributes that name another object are edges too (see {@link referenceEdges}), unless a
 * link already joins the two.
 */
export function stateTopology(state: State): Topology {
  const nodes: TopologyNode[] = [];
  for (const objects of state.objects.values()) for (const object of objects.values()) nodes.push({ ref: { kind: object.kind, name: object.name } });
  return sorted(nodes, relationEdges(state).map(({ reference: _reference, ...edge }) => edge));
}

/** Nodes and edges being gathered, by key. */
interface Gathering {
  readonly nodes: Map<ObjectKey<ResourceType>, TopologyNode>;
  readonly edges: Map<LinkKey, TopologyEdge & { key: LinkKey }>;
}

function gathering(): Gathering & { touch(ref: ObjectRef, change?: NodeChange): void; edge(link: Link, change: EdgeChange): void } {
  const nodes = new Map<ObjectKey<ResourceType>, TopologyNode>();
  const edges = new Map<LinkKey, TopologyEdge & { key: LinkKey }>();
  const touch = (ref: ObjectRef, change?: NodeChange): void => {
    const key = objectKey(ref.kind, ref.name);
    const known = nodes.get(key);
    if (!known || (change && !known.change)) nodes.set(key, { ref: { kind: ref.kind, name: ref.name }, ...(change ? { change } : {}) });
  };
  const edge = (link: Link, change: EdgeChange): void => {
    touch(link.from);
    touch(link.to);
    const key = linkKey(link);
    edges.set(key, { from: link.from, relationship: link.relationship, to: link.to, key, change });
  };
  return { nodes, edges, touch, edge };
}

/** How {@link withNeighbours} marks the edges it adds. */
interface NeighbourMarks {
  /** An edge with a deleted end. */
  readonly gone: EdgeChange;
  /** An edge with a created end; unmarked when absent. */
  readonly came?: EdgeChange;
  /** An attribute naming another object in the desired state only. */
  readonly desiredOnly: EdgeChange;
  /** An attribute naming another object in the live state only. */
  readonly liveOnly: EdgeChange;
}

/**
 * Adds every other relationship of the desired or live state with a touched end (its links
 * and the attributes that name another object, as `gwops graph` draws them: {@link
 * relationEdges}), marked `gone`
 * when an end is marked `delete` and `came` when an end is marked `create` (else
 * unchanged); its other end joins as an unmarked neighbour. Then sorts.
 */
function withNeighbours(g: ReturnType<typeof gathering>, desired: State, live: State, marks: NeighbourMarks): Topology {
  const touched = new Set(g.nodes.keys());
  const ended = (change: NodeChange): Set<string> => new Set([...g.nodes].filter(([, n]) => n.change === change).map(([key]) => key));
  const deleted = ended('delete');
  const created = ended('create');
  const desiredEdges = relationEdges(desired);
  const liveEdges = relationEdges(live);
  const desiredKeys = new Set(desiredEdges.map((edge) => edge.key));
  const liveKeys = new Set(liveEdges.map((edge) => edge.key));
  for (const link of [...desiredEdges, ...liveEdges]) {
    const key = link.key;
    if (g.edges.has(key)) continue;
    // An attribute naming another object on one side only: an update or drift changes it (links differ by steps and entries of their own).
    const oneSide = desiredKeys.has(key) !== liveKeys.has(key) ? (desiredKeys.has(key) ? marks.desiredOnly : marks.liveOnly) : undefined;
    const ends = [objectKey(link.from.kind, link.from.name), objectKey(link.to.kind, link.to.name)];
    if (!ends.some((end) => touched.has(end))) continue;
    g.touch(link.from);
    g.touch(link.to);
    const change = ends.some((end) => deleted.has(end)) ? marks.gone : marks.came !== undefined && ends.some((end) => created.has(end)) ? marks.came : link.reference ? oneSide : undefined;
    g.edges.set(key, { from: link.from, relationship: link.relationship, to: link.to, key, ...(change ? { change } : {}) });
  }
  return sorted(g.nodes.values(), g.edges.values());
}

/**
 * What a plan touches, with its direct neighbours for context: a node for every object a
 * step changes or links (marked with the create, update or delete of its object step), an
 * edge for every link step (`added`, `removed`), and every other relationship (a link, an
 * attribute naming another object) of the desired or live state with a touched end (`removed` when that end is deleted, else unchanged), whose
 * other end joins as an unmarked neighbour.
 */
export function planTopology(plan: Plan, desired: State, live: State): Topology {
  const g = gathering();
  for (const step of plan.steps) {
    switch (step.action) {
      case 'create':
      case 'update':
      case 'delete':
        g.touch(step, step.action);
        break;
      case 'link':
      case 'unlink':
        g.edge({ from: { kind: step.kind, name: step.name }, relationship: step.relationship, to: step.related }, step.action === 'link' ? 'added' : 'removed');
        break;
    }
  }
  return withNeighbours(g, desired, live, { gone: 'removed', desiredOnly: 'added', liveOnly: 'removed' });
}

/** The marks of each drift direction: what happened on the gateway. */
const DRIFT_NODE: Readonly<Partial<Record<DriftDirection, NodeChange>>> = { changed: 'update', deleted: 'delete', added: 'create' };

/** The related object of a link entry of a drift report. */
function relatedRef(value: unknown): ObjectRef | undefined {
  if (typeof value !== 'object' || value === null || !('kind' in value) || !('name' in value)) return undefined;
  const { kind, name } = value;
  return typeof kind === 'string' && typeof name === 'string' && isResourceType(kind) ? { kind, name } : undefined;
}

/**
 * What drifted, as it happened on the gateway (the direction of the drift report's tables,
 * src/engine/drift-report.ts): an object changed there is marked update, one deleted
 * there delete, one added there create; a link added there is `added`, one deleted there
 * `removed`. Neighbours as in {@link planTopology}: the links of an object deleted on the
 * gateway are `removed`, those of an object added there `added`. Ignored differences are
 * not in the report's entries, so not drawn.
 */
export function driftTopology(report: Pick<DriftReport, 'entries'>, desired: State, live: State): Topology {
  const g = gathering();
  for (const entry of report.entries) {
    const change = DRIFT_NODE[entry.direction];
    if (change) {
      g.touch(entry, change);
      continue;
    }
    const added = entry.direction === 'link-added';
    const to = relatedRef(added ? entry.live : entry.declared);
    const relationship = entry.path?.replace(/^relationships\./, '');
    if (to && relationship !== undefined) g.edge({ from: { kind: entry.kind, name: entry.name }, relationship, to }, added ? 'added' : 'removed');
  }
  return withNeighbours(g, desired, live, { gone: 'removed', came: 'added', desiredOnly: 'removed', liveOnly: 'added' });
}
