/**
 * The requests of a plan (`Plan.calls`): the ordered steps sent in the fewest calls. A
 * session is sequential (docs/gateway-api.md "Base path and transport"), so apply time is
 * calls times round trip. Pure, like the planner that calls it.
 *
 * - Creates, updates and deletes are one call each, at their step's position.
 * - A new object whose kind names relationships in `createRelationships` carries its links
 *   through them in the create body's `relationships` member, when the other end exists
 *   by then (docs/gateway-api.md "Relationships": `POST /configuration/virtual-hosts`).
 * - The other link steps, and all unlink steps, are grouped per (object, relationship,
 *   link or unlink) into one PATCH or DELETE of the relationship endpoint carrying every
 *   identifier (docs/gateway-api.md "Relationships": both sides of a link have an
 *   endpoint, and a link made from either side is the same link). Each link may go to
 *   either side; the sides are chosen so that the number of calls is the smallest: a
 *   minimum vertex cover of the bipartite graph whose vertices are (object, relationship)
 *   and whose edges are the links (König's theorem, from a maximum matching). Ties go to
 *   the canonical side.
 * - A built-in object's side (negative id) is never used when the other side can carry
 *   the link: the gateway refuses relationship calls on built-ins.
 * - A side takes one identifier per call when its relationship is to-one, or has aliases
 *   (older gateways serve it under another name, to-one: docs/gateway-api.md
 *   "Relationships"). The other side is used only when its relationship exists in every
 *   variant in which the link can exist (RelationshipDefinition `variants`).
 * - Order: unlink calls run in the unlink phase and link calls in the link phase of the
 *   step order (order.ts), so every link comes after the creates of both ends, every
 *   to-one unlink before the link that replaces it, and every unlink before the deletes.
 *   `checkCalls` (call-check.ts) verifies this for every plan.
 */
import type { KindDefinition, RelationshipDefinition } from '../kinds/index.js';
import { VARIANTS, kindOf } from '../kinds/index.js';
import { isBuiltInId } from '../api/documents.js';
import { collectionPathOf } from './live.js';
import type { ObjectRef } from './model.js';
import { ByObject } from './model.js';
import type { ObjectContent } from './content.js';
import type { ContentChange, LinkStep, PlanCall, PlanStep, RelationshipBody, ResourceIdentifier, UnlinkStep } from './plan-types.js';
import { minimumVertexCover } from './vertex-cover.js';
import { withIndex } from './indexed.js';

/** A link or unlink step. */
export type LinkLike = LinkStep | UnlinkStep;

/** One end of a link as a request can address it: `object`'s relationship `def`, naming `other`. */
interface Side {
  readonly object: ObjectRef;
  readonly def: RelationshipDefinition;
  readonly other: ObjectRef;
}

/** A call before it has its position: `anchor` is the smallest step index it carries. */
type DraftCall = PlanCall extends infer C ? (C extends PlanCall ? Omit<C, 'index'> & { readonly anchor: number } : never) : never;

/** The canonical relationship of a link step. @throws Error for an unknown relationship (a planner bug) */
export function canonicalDef(step: LinkLike): RelationshipDefinition {
  const def = kindOf(step.kind).relationships[step.relationship];
  if (!def) throw new Error(`unknown relationship ${step.kind}.${step.relationship}`);
  return def;
}

function variantsOf(kind: KindDefinition, def: RelationshipDefinition): Set<string> {
  return new Set((def.variants ?? VARIANTS).filter((v) => kind.variants.includes(v)));
}

/** {@link usableInverse} by kind and canonical relationship definition (objects, so no key is built per step). */
const inverseCache = new Map<KindDefinition, Map<RelationshipDefinition, RelationshipDefinition | null>>();

/**
 * The inverse of the canonical relationship `def` of `kind`, when a request may address it:
 * real gateways document its endpoint (RelationshipDefinition `documented`), and it exists
 * in every variant in which the canonical one exists between these kinds.
 */
function usableInverse(kind: KindDefinition, def: RelationshipDefinition): RelationshipDefinition | undefined {
  let ofKind = inverseCache.get(kind);
  if (!ofKind) inverseCache.set(kind, (ofKind = new Map<RelationshipDefinition, RelationshipDefinition | null>()));
  let found = ofKind.get(def);
  if (found === undefined) {
    const to = kindOf(def.target);
    const inverse = to.relationships[def.inverse];
    const linkVariants = [...variantsOf(kind, def)].filter((v) => to.variants.some((w) => w === v));
    const inverseVariants = inverse ? variantsOf(to, inverse) : new Set<string>();
    found = inverse && inverse.documented !== false && linkVariants.every((v) => inverseVariants.has(v)) ? inverse : null;
    ofKind.set(def, found);
  }
  return found ?? undefined;
}

/** The other side of a link step, when a request may address it (see {@link usableInverse}). */
function inverseSide(step: LinkLike, def: RelationshipDefinition): Side | undefined {
  const inverse = usableInverse(kindOf(step.kind), def);
  return inverse ? { object: step.related, def: inverse, other: { kind: step.kind, name: step.name } } : undefined;
}

/** True when a side may carry several identifiers in one call. */
function batchable(def: RelationshipDefinition): boolean {
  return def.cardinality === 'many' && (def.aliases?.length ?? 0) === 0;
}

/**
 * Numbers the sides of links in order of first appearance: a batchable side (see
 * {@link batchable}) by its relationship and object, every other side on its own. Looked up
 * through maps of the names themselves: no key is built per link, and the few relationships
 * come first, so no map is made per object (200,000 of them for 100,000 new mappings).
 */
class Vertices {
  private next = 0;
  private readonly numbers = new Map<string, ByObject<number>>();
  get count(): number {
    return this.next;
  }
  number(side: Side): number {
    if (!batchable(side.def)) return this.next++;
    let ofRelationship = this.numbers.get(side.def.name);
    if (!ofRelationship) this.numbers.set(side.def.name, (ofRelationship = new ByObject<number>()));
    return ofRelationship.get(side.object) ?? ofRelationship.set(side.object, this.next++);
  }
}

/**
 * The side each link step is sent from (`result[i]` for `steps[i]`), so that the number
 * of (object, relationship) groups is the smallest; see the module comment.
 */
export function chooseSides(steps: readonly LinkLike[], isBuiltIn: (ref: ObjectRef) => boolean = () => false): Side[] {
  const left = new Vertices();
  const right = new Vertices();
  const edges: { l: number; r: number | undefined; canonical: Side; inverse: Side | undefined }[] = [];
  // A vertex with an edge that only it can carry is in every cover: its edges are covered.
  const forcedLeft = new Set<number>();
  const forcedRight = new Set<number>();
  for (const step of steps) {
    const def = canonicalDef(step);
    const canonical: Side = { object: { kind: step.kind, name: step.name }, def, other: step.related };
    // The gateway refuses relationship calls on a built-in object: its side is never used
    // when the other one can be (docs/gateway-api.md "Documents and ids").
    const other = inverseSide(step, def);
    // Asked for both ends of every link, not remembered per object: remembering cost more
    // lookups than asking (an id looked up, and its first character read).
    const inverse = other && !isBuiltIn(other.object) ? other : undefined;
    const l = left.number(canonical);
    const r = inverse ? right.number(inverse) : undefined;
    if (r === undefined) forcedLeft.add(l);
    else if (isBuiltIn(canonical.object)) forcedRight.add(r);
    edges.push({ l, r, canonical, inverse });
  }
  const adjacency: number[][] = Array.from({ length: left.count }, () => []);
  for (const e of edges) if (e.r !== undefined && !forcedLeft.has(e.l) && !forcedRight.has(e.r)) adjacency[e.l]?.push(e.r);
  const cover = minimumVertexCover(left.count, right.count, adjacency);
  return edges.map((e) => {
    const useLeft = (e.r === undefined || !forcedRight.has(e.r)) && (forcedLeft.has(e.l) || cover.left[e.l] === true);
    return useLeft || !e.inverse ? e.canonical : e.inverse;
  });
}

function bodyOf(def: RelationshipDefinition, identifiers: readonly ResourceIdentifier[]): RelationshipBody {
  const [first] = identifiers;
  return { data: def.cardinality === 'one' && identifiers.length === 1 && first ? first : identifiers };
}

/**
 * The calls that carry `steps` (ordered by order.ts), in send order. A create or update
 * step with `content` is followed by the {@link ContentCall} that uploads it.
 * @param idOf the id of an object in requests: literal for live objects, a placeholder for
 *   objects the plan creates
 * @param contentOf the desired content of an object (its bytes go into the content call)
 * @param isBuiltIn whether `idOf(ref)` is a built-in object's id (`isBuiltInId`), when the
 *   caller can tell it without asking `idOf` (default: asks)
 */
export function planCalls(
  steps: readonly PlanStep[],
  idOf: (ref: ObjectRef) => string,
  contentOf: (ref: ObjectRef) => ObjectContent | undefined = () => undefined,
  isBuiltIn: (ref: ObjectRef) => boolean = (ref) => isBuiltInId(idOf(ref)),
): PlanCall[] {
  const createdAt = new ByObject<number>();
  for (const step of steps) if (step.action === 'create') createdAt.set(step, step.index);
  const identifier = (ref: ObjectRef): ResourceIdentifier => ({ type: ref.kind, id: idOf(ref) });

  // Links a create carries: by create step index, relationship name → [step index, other end].
  const carried = new Map<number, Map<string, { def: RelationshipDefinition; links: { step: number; other: ObjectRef }[] }>>();
  // Whether the create of `object` can carry the link to `other` through its relationship `def`: `object` is created by the plan, `other` exists by then.
  const carries = (object: ObjectRef, def: RelationshipDefinition, other: ObjectRef): boolean => {
    const at = createdAt.get(object);
    if (at === undefined || (createdAt.get(other) ?? 0) >= at) return false;
    if (!(kindOf(object.kind).createRelationships ?? []).includes(def.name)) return false;
    return def.cardinality === 'many' || carried.get(at)?.get(def.name) === undefined;
  };
  const inCreate = new Set<number>();
  const links: LinkLike[] = [];
  const unlinks: LinkLike[] = [];
  for (const step of steps) {
    if (step.action === 'unlink') unlinks.push(step);
    if (step.action !== 'link') continue;
    const def = canonicalDef(step);
    // The canonical side first, then the other.
    let side: Side | undefined = carries(step, def, step.related) ? { object: { kind: step.kind, name: step.name }, def, other: step.related } : undefined;
    if (!side) {
      const inverse = inverseSide(step, def);
      if (inverse && carries(inverse.object, inverse.def, inverse.other)) side = inverse;
    }
    if (!side) {
      links.push(step);
      continue;
    }
    const at = createdAt.get(side.object) ?? 0;
    let byRelationship = carried.get(at);
    if (!byRelationship) carried.set(at, (byRelationship = new Map<string, { def: RelationshipDefinition; links: { step: number; other: ObjectRef }[] }>()));
    let slot = byRelationship.get(side.def.name);
    if (!slot) byRelationship.set(side.def.name, (slot = { def: side.def, links: [] }));
    slot.links.push({ step: step.index, other: side.other });
    inCreate.add(step.index);
  }

  const drafts: DraftCall[] = [];
  const upload = (step: PlanStep & { readonly content?: ContentChange }, carries: boolean): void => {
    const content = step.content ? contentOf(step) : undefined;
    if (!content) return;
    const id = idOf(step);
    drafts.push({
      anchor: step.index,
      endpoint: 'content',
      method: 'PUT',
      kind: step.kind,
      name: step.name,
      id,
      path: `${collectionPathOf(step.kind)}/${id}/content`,
      steps: carries ? [step.index] : [],
      of: step.index,
      digest: content.digest,
      data: content.base64,
    });
  };
  for (const step of steps) {
    switch (step.action) {
      case 'create': {
        const byRelationship = carried.get(step.index);
        const relationships: Record<string, RelationshipBody> = {};
        const extra: number[] = [];
        for (const name of kindOf(step.kind).createRelationships ?? []) {
          const slot = byRelationship?.get(name);
          if (!slot) continue;
          relationships[name] = bodyOf(slot.def, slot.links.map((l) => identifier(l.other)));
          extra.push(...slot.links.map((l) => l.step));
        }
        drafts.push({
          anchor: step.index,
          endpoint: 'object',
          method: 'POST',
          kind: step.kind,
          name: step.name,
          path: step.path,
          steps: [step.index, ...extra.sort((a, b) => a - b)],
          ...(extra.length > 0 ? { relationships } : {}),
        });
        upload(step, false);
        break;
      }
      case 'update':
        if (step.changes.length > 0 || !step.content) {
          drafts.push({ anchor: step.index, endpoint: 'object', method: step.method, kind: step.kind, name: step.name, path: step.path, steps: [step.index] });
        }
        upload(step, step.changes.length === 0);
        break;
      case 'delete':
        drafts.push({ anchor: step.index, endpoint: 'object', method: step.method, kind: step.kind, name: step.name, path: step.path, steps: [step.index] });
        break;
      case 'link':
      case 'unlink':
        break;
    }
  }
  for (const [group, method] of [
    [unlinks, 'DELETE'],
    [links, 'PATCH'],
  ] as const) {
    const sides = chooseSides(group, isBuiltIn);
    // One call per batchable side, one per step otherwise: the side's number says which.
    const callNumbers = new Vertices();
    const calls = new Map<number, { side: Side; steps: number[]; others: ObjectRef[] }>();
    for (let i = 0; i < group.length; i++) {
      const step = group[i] as LinkLike;
      const side = sides[i];
      if (!side) throw new Error(`no side chosen for step ${step.index}`);
      const key = callNumbers.number(side);
      let call = calls.get(key);
      if (!call) calls.set(key, (call = { side, steps: [], others: [] }));
      call.steps.push(step.index);
      call.others.push(side.other);
    }
    for (const { side, steps: carriedSteps, others } of calls.values()) {
      const id = idOf(side.object);
      drafts.push({
        anchor: carriedSteps.reduce((min, i) => Math.min(min, i), Number.MAX_SAFE_INTEGER),
        endpoint: 'relationship',
        method,
        kind: side.object.kind,
        name: side.object.name,
        id,
        path: `${collectionPathOf(side.object.kind)}/${id}/relationships/${side.def.endpoint ?? side.def.name}`,
        relationship: side.def.name,
        steps: carriedSteps,
        body: bodyOf(side.def, others.map(identifier)),
      });
    }
  }
  drafts.sort((a, b) => a.anchor - b.anchor);
  return drafts.map((draft, i): PlanCall => withIndex(draft, i + 1, 'anchor'));
}

function isIdentifierList(data: RelationshipBody['data']): data is readonly ResourceIdentifier[] {
  return Array.isArray(data);
}

/** The identifiers of a relationship body, whether to-many (an array) or to-one (one identifier). */
export function identifiersOf(body: RelationshipBody): readonly ResourceIdentifier[] {
  return isIdentifierList(body.data) ? body.data : [body.data];
}
