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
    const target = path.schema['x-gwops-reference'] as ResourceType;
    const none = path.schema['x-gwops-reference-none'];
    const visit = (node: unknown, depth: number, at: readonly string[]): void => {
      if (depth === path.segments.length) {
        const one = (value: unknown, segments: readonly string[]): void => {
          if ((typeof value === 'string' || typeof value === 'number') && value !== none) out.push({ segments, target, value });
        };
        if (Array.isArray(node)) node.forEach((item, i) => one(item, [...at, String(i)]));
        else one(node, at);
        return;
      }
      const segment = path.segments[depth] ?? '';
      if (segment === '*') {
        if (Array.isArray(node)) node.forEach((item, i) => visit(item, depth + 1, [...at, String(i)]));
      } else if (isRecord(node) && Object.hasOwn(node, segment)) {
        visit(node[segment], depth + 1, [...at, segment]);
      }
    };
    visit(attributes, 0, []);
  }
  return out;
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
  const copy = structuredClone(attributes) as Record<string, unknown>;
  for (const reference of found) {
    let node: unknown = copy;
    const last = reference.segments.length - 1;
    reference.segments.forEach((segment, i) => {
      if (node === null || typeof node !== 'object') return;
      const container = node as Record<string, unknown>;
      if (i === last) container[segment] = convert(reference.target, reference.value);
      else node = container[segment];
    });
  }
  return copy as T;
}
