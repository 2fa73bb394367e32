/**
 * Attributes that name another object (schema mark `x-gwops-reference`, e.g. a mapping's
 * `ipRules.ipAddressWhitelists.pathWhitelists[].ipAddressListIds`): manifests, plans,
 * drift reports and exports write the object's name, the gateway holds its id as a JSON
 * number (docs/architecture.md "Decisions": references are names, never ids). Live state
 * turns ids into names as it is built; the executor turns names into ids as it sends.
 * Pure. Here, below the engine, the export and the emulator, which all use it.
 */
import type { ResourceType } from '../kinds/index.js';
import { referenceAttributes } from './index.js';

/** One reference value found in an object's attributes. */
export interface AttributeReference {
  /** JSON pointer segments of the value relative to `attributes` (array indexes as strings). */
  readonly segments: readonly string[];
  /** The resource type of the named object. */
  readonly target: ResourceType;
  /** The value as found: a name in desired state, an id on the wire. */
  readonly value: string | number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every reference value in `attributes` of an object of `type`, in document order: the
 * value of a marked attribute, or each item when it is an array; the number that names no
 * object (`x-gwops-reference-none`) is none.
 */
export function attributeReferences(type: ResourceType, attributes: Readonly<Record<string, unknown>>): AttributeReference[] {
  const out: AttributeReference[] = [];
  for (const path of referenceAttributes(type)) {
    const found = { target: path.schema['x-gwops-reference'] as ResourceType, none: path.schema['x-gwops-reference-none'], out };
    collectReferences(attributes, path.segments, 0, [], found);
  }
  return out;
}

/** Where {@link collectReferences} puts what it finds: the references' type, the value that names none, the list. */
interface Found {
  readonly target: ResourceType;
  readonly none: unknown;
  readonly out: AttributeReference[];
}

/**
 * Pushes to `found.out` the reference values below `node`, reached by the first `depth`
 * segments of `segments` at the pointer `at` (a stack, changed while walking: each value
 * found gets a copy). A function of its own, not a closure per object and path: every
 * object of a plan is walked once or twice, and every create the executor sends once more.
 */
function collectReferences(node: unknown, segments: readonly string[], depth: number, at: string[], found: Found): void {
  if (depth === segments.length) {
    if (Array.isArray(node)) node.forEach((item, i) => pushReference(item, [...at, String(i)], found));
    else pushReference(node, [...at], found);
    return;
  }
  const segment = segments[depth] ?? '';
  if (segment === '*') {
    if (!Array.isArray(node)) return;
    for (let i = 0; i < node.length; i++) {
      at.push(String(i));
      collectReferences(node[i], segments, depth + 1, at, found);
      at.pop();
    }
  } else if (isRecord(node) && Object.hasOwn(node, segment)) {
    at.push(segment);
    collectReferences(node[segment], segments, depth + 1, at, found);
    at.pop();
  }
}

function pushReference(value: unknown, segments: readonly string[], found: Found): void {
  if ((typeof value === 'string' || typeof value === 'number') && value !== found.none) found.out.push({ segments, target: found.target, value });
}

/**
 * `attributes` with every reference value replaced by `convert(target, value)`; the same
 * object when the type has no references or none is set. Only the containers on a
 * reference's path are copied.
 */
export function mapReferences<T extends Readonly<Record<string, unknown>>>(
  type: ResourceType,
  attributes: T,
  convert: (target: ResourceType, value: string | number) => unknown,
): T {
  const found = attributeReferences(type, attributes);
  if (found.length === 0) return attributes;
  // Shallow copies of the containers on each reference's path, never a deep clone: the
  // values beside a reference stay the same values (an export's secret slot is a class
  // instance, which a structured clone would turn into a plain object).
  const copies = new WeakSet<object>();
  const copyOf = <C extends object>(container: C): C => {
    const copy = (Array.isArray(container) ? [...container] : { ...container }) as C;
    copies.add(copy);
    return copy;
  };
  const root = copyOf(attributes as Record<string, unknown>);
  references: for (const reference of found) {
    let node: Record<string, unknown> = root;
    const last = reference.segments.length - 1;
    for (let i = 0; i < last; i++) {
      const segment = reference.segments[i] ?? '';
      const child = node[segment];
      if (child === null || typeof child !== 'object') continue references;
      const container = copies.has(child) ? (child as Record<string, unknown>) : copyOf(child as Record<string, unknown>);
      node[segment] = container;
      node = container;
    }
    const key = reference.segments[last];
    if (key !== undefined) node[key] = convert(reference.target, reference.value);
  }
  return root as T;
}
