/**
 * Which file `drift --adopt` writes a value into (README.md "Drift"): the document in
 * force for it (the target's overlay that sets it, else the base document), never a file
 * that another target of the project reads. A base document is read by every target, so
 * in a project with other targets a value set in the base goes into the target's own
 * overlay instead (as a JSON merge patch, RFC 7386: lists whole), and is refused when the
 * target has none. Pure: paths and the loader's origins in, decisions out.
 */
import path from 'node:path';
import type { DocumentOrigin, ObjectOrigins, TargetConfig } from '../manifest/index.js';

/** The targets of the project and the one a run is for. */
export interface TargetContext {
  readonly targets: Readonly<Record<string, TargetConfig>>;
  /** The target of this run; undefined when the run names none (every target then reads the base as well). */
  readonly current?: string | undefined;
  readonly cwd: string;
}

function inside(file: string, dirOrFile: string): boolean {
  const relative = path.relative(dirOrFile, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The other targets that read `file` (absolute): every one for a base file, those whose overlays hold it for an overlay file. */
export function otherReaders(context: TargetContext, file: string, base: boolean): string[] {
  return Object.entries(context.targets)
    .filter(([name]) => name !== context.current)
    .filter(([, target]) => base || (target.overlays ?? []).some((o) => inside(file, o)))
    .map(([name]) => name);
}

/** The overlay paths (absolute) of the current target. */
export function currentOverlays(context: TargetContext): readonly string[] {
  return context.current === undefined ? [] : (context.targets[context.current]?.overlays ?? []);
}

/** Where a pointer of an object's document is in force: the origin and the pointer in that origin's document. */
export interface Holder {
  readonly origin: DocumentOrigin;
  readonly base: boolean;
  /** Segments of the holder's own document. */
  readonly mapped: readonly string[];
}

/** The document in force for `segments` of the object (the latest overlay that sets it, else the base when it holds it). */
export function holderOf(origins: ObjectOrigins, segments: readonly string[]): Holder | undefined {
  for (const origin of origins.overlays) {
    const mapped = origin.locate(segments);
    if (mapped) return { origin, base: false, mapped };
  }
  const mapped = origins.base.locate(segments);
  return mapped ? { origin: origins.base, base: true, mapped } : undefined;
}

/**
 * The deepest prefix of `segments` (below `prefix`, e.g. `['attributes']`) that some
 * document of the object holds, with its holder; length 0 and no holder when none does
 * (the value comes from a template, or is new).
 */
export function deepestHolder(origins: ObjectOrigins, prefix: readonly string[], segments: readonly string[]): { length: number; holder?: Holder } {
  for (let length = segments.length; length > 0; length--) {
    const holder = holderOf(origins, [...prefix, ...segments.slice(0, length)]);
    if (holder) return { length, holder };
  }
  return { length: 0 };
}

/** How many leading `segments` (below `prefix`) `origin` holds. */
export function heldLength(origin: DocumentOrigin, prefix: readonly string[], segments: readonly string[]): number {
  for (let length = segments.length; length > 0; length--) if (origin.locate([...prefix, ...segments.slice(0, length)])) return length;
  return 0;
}

/**
 * Where a value at `segments` is written when the document holds only the first `held`:
 * the segments themselves, or, when what is missing passes through a list item, the list
 * (a missing item cannot be written alone; appending one item is).
 */
export function writablePrefix(segments: readonly string[], held: number): number {
  const rest = segments.slice(held);
  const index = rest.findIndex((s) => /^\d+$/.test(s));
  if (index < 0 || (index === 0 && rest.length === 1)) return segments.length;
  return held + index;
}

/** An absolute file path from a displayed one. */
export function absoluteFile(context: TargetContext, file: string): string {
  return path.resolve(context.cwd, file);
}
