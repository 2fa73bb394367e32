/**
 * Which file `drift --adopt` writes each object added on the gateway into (README.md
 * "Drift", docs/adoption-guide.md "Objects added on the gateway"): beside the declared
 * objects it is most related to, else into a file of its own. Pure: the states, the files
 * the objects are declared in and the folders the run reads in, decisions out; index.ts
 * names and writes the files.
 *
 * Two objects are related when a link joins them (either side's relationship) or when the
 * attributes of one name the other (src/schema/references.ts), on the gateway or in the
 * manifests. The objects related to a new object N are:
 * - its neighbours: the objects related to N, each of weight 1;
 * - its siblings: the objects of N's kind related to one of N's neighbours (the other
 *   mappings of N's virtual host), each of weight the number of N's neighbours it shares.
 * Each file that declares one of them scores the weights of those it declares; the file of
 * the highest score wins (then the one that declares objects of N's kind, then the first by
 * path), and N is added to it. A new object placed this way counts as declared there for the
 * next ones, so that new objects related to each other stay together.
 *
 * A file of one object's own (it declares that object only and is named after it as
 * `gwops export` names files: `<kind>/<name>.yaml`, src/export/file-layout.ts, or
 * `<name>.yaml` in another folder) is never given another object: when such a file wins,
 * or when nothing related is declared, N gets a file of its own, named by export's rules
 * by the caller, in the folder of the own files of its kind (those related to N first,
 * else the most), else `<kind>/` under the folder that holds export's `<kind>/` folders
 * (those of N's related objects first), else under the first folder the project reads.
 * When the project reads no folder such a file would be read from, N goes beside its most
 * related object all the same, and is not adopted when nothing is related.
 */
import path from 'node:path';
import type { ObjectRef, State } from '../engine/model.js';
import { escapeFileName, fitFileName } from '../export/names.js';
import { attributeReferences } from '../schema/references.js';

/** What {@link placeNewObjects} reads. */
export interface NewObjectsInput {
  /** The objects added on the gateway, in the order to place them. */
  readonly added: readonly ObjectRef[];
  /** The manifests' state: each declared object's `source.file` (relative to `cwd`, or absolute). */
  readonly desired: State;
  /** The gateway's state, where the added objects and their links are. */
  readonly live: State;
  /** The folders (absolute) the run reads whole: a new file in one of them, at any depth, is read. */
  readonly folders: readonly string[];
  readonly cwd: string;
}

/** Where one added object goes. */
export type NewObjectPlacement =
  /** Added to `file` (absolute; an existing manifest, or a file another new object of this run goes into), which declares `related`. */
  | { readonly type: 'beside'; readonly file: string; readonly related: ObjectRef }
  /** A file of its own in `folder` (absolute), named after the object by export's rules. */
  | { readonly type: 'own'; readonly folder: string }
  /** Not adopted: why. */
  | { readonly type: 'none'; readonly why: string };

const keyOf = (ref: ObjectRef): string => `${ref.kind}\u0000${ref.name}`;

/** The objects related to each object, from the links and attribute references of `states`. */
function relations(states: readonly State[]): (ref: ObjectRef) => readonly ObjectRef[] {
  const byObject = new Map<string, Map<string, ObjectRef>>();
  const join = (a: ObjectRef, b: ObjectRef): void => {
    if (a.kind === b.kind && a.name === b.name) return;
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      let related = byObject.get(keyOf(from));
      if (!related) byObject.set(keyOf(from), (related = new Map<string, ObjectRef>()));
      related.set(keyOf(to), { kind: to.kind, name: to.name });
    }
  };
  for (const state of states) {
    for (const link of state.links) join(link.from, link.to);
    for (const [kind, objects] of state.objects) {
      for (const object of objects.values()) {
        for (const reference of attributeReferences(kind, object.attributes)) join(object, { kind: reference.target, name: String(reference.value) });
      }
    }
  }
  return (ref) => [...(byObject.get(keyOf(ref))?.values() ?? [])];
}

/** Where an object is declared (or goes, in this run): its file, and whether that file is its own. */
interface Home {
  readonly file: string;
  readonly own: boolean;
  readonly ref: ObjectRef;
}

/** True when `file` is named after the object `ref` as export names files (`<name>.yaml`). */
function isOwnFileName(file: string, ref: ObjectRef): boolean {
  return path.basename(file) === fitFileName(escapeFileName(ref.name), '.yaml');
}

/** True when `file` is in a folder named after the kind of `ref` (export's per-object layout, `<kind>/<name>.yaml`). */
function inKindFolder(file: string, ref: ObjectRef): boolean {
  return path.basename(path.dirname(file)) === ref.kind;
}

function inside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * Where each object of `input.added` goes (module comment), by `kind\0name`.
 */
export function placeNewObjects(input: NewObjectsInput): Map<string, NewObjectPlacement> {
  const placements = new Map<string, NewObjectPlacement>();
  if (input.added.length === 0) return placements;
  const relatedTo = relations([input.live, input.desired]);
  const homes = new Map<string, Home>();
  /** The objects each file declares. */
  const declaredIn = new Map<string, ObjectRef[]>();
  const declare = (file: string, ref: ObjectRef): void => {
    const list = declaredIn.get(file);
    if (list) list.push(ref);
    else declaredIn.set(file, [ref]);
  };
  for (const [, objects] of input.desired.objects) {
    for (const object of objects.values()) {
      const file = object.source?.file;
      if (file === undefined || file === '-') continue;
      declare(path.resolve(input.cwd, file), object);
    }
  }
  for (const [file, objects] of declaredIn) {
    const [only] = objects;
    for (const object of objects) homes.set(keyOf(object), { file, own: objects.length === 1 && only !== undefined && isOwnFileName(file, only), ref: object });
  }
  const kindsIn = (file: string): ReadonlySet<string> => new Set((declaredIn.get(file) ?? []).map((o) => o.kind));
  const readable = (folder: string): boolean => input.folders.some((f) => inside(folder, f));

  /** The homes of the objects related to `ref`, best first, with the object each file holds. */
  const ranked = (ref: ObjectRef): { file: string; own: boolean; related: ObjectRef; relatedWeight: number }[] => {
    const weights = new Map<string, { ref: ObjectRef; weight: number }>();
    const weigh = (other: ObjectRef): void => {
      const entry = weights.get(keyOf(other));
      weights.set(keyOf(other), { ref: other, weight: (entry?.weight ?? 0) + 1 });
    };
    for (const neighbour of relatedTo(ref)) {
      weigh(neighbour);
      for (const sibling of relatedTo(neighbour)) if (sibling.kind === ref.kind && keyOf(sibling) !== keyOf(ref)) weigh(sibling);
    }
    const files = new Map<string, { file: string; own: boolean; score: number; related: ObjectRef; relatedWeight: number }>();
    for (const { ref: other, weight } of weights.values()) {
      const home = homes.get(keyOf(other));
      if (!home) continue;
      const file = files.get(home.file);
      if (!file) files.set(home.file, { file: home.file, own: home.own, score: weight, related: other, relatedWeight: weight });
      else {
        file.score += weight;
        if (weight > file.relatedWeight) Object.assign(file, { related: other, relatedWeight: weight });
      }
    }
    const sameKind = (file: string): number => (kindsIn(file).has(ref.kind) ? 1 : 0);
    return [...files.values()].sort((a, b) => b.score - a.score || sameKind(b.file) - sameKind(a.file) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  };

  /** The folder (absolute) of a file of its own for `ref`, within a folder read (module comment); `best` its related homes, best first. */
  const ownFolder = (ref: ObjectRef, best: readonly { file: string; own: boolean; related: ObjectRef }[]): string | undefined => {
    const byCount = (folders: readonly string[]): string[] => {
      const counts = new Map<string, number>();
      for (const folder of folders) counts.set(folder, (counts.get(folder) ?? 0) + 1);
      return [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0)).map(([folder]) => folder);
    };
    const own = [...homes.values()].filter((home) => home.own);
    const kindRoot = (home: { file: string }): string => path.dirname(path.dirname(home.file));
    const candidates = [
      // Beside the own files of its kind, those of related objects first.
      ...best.filter((home) => home.own && home.related.kind === ref.kind).map((home) => path.dirname(home.file)),
      ...byCount(own.filter((home) => home.ref.kind === ref.kind).map((home) => path.dirname(home.file))),
      // `<kind>/` beside export's `<kind>/` folders, those of related objects first.
      ...best.filter((home) => home.own && inKindFolder(home.file, home.related)).map((home) => path.join(kindRoot(home), ref.kind)),
      ...byCount(own.filter((home) => inKindFolder(home.file, home.ref)).map((home) => path.join(kindRoot(home), ref.kind))),
      ...input.folders.map((folder) => path.join(folder, ref.kind)),
    ];
    return candidates.find(readable);
  };

  const place = (ref: ObjectRef): boolean => {
    const best = ranked(ref);
    const top = best[0];
    if (top && !top.own) {
      placements.set(keyOf(ref), { type: 'beside', file: top.file, related: top.related });
      homes.set(keyOf(ref), { file: top.file, own: false, ref });
      declare(top.file, ref);
      return true;
    }
    if (!top) return false;
    const folder = ownFolder(ref, best);
    if (folder !== undefined) {
      placements.set(keyOf(ref), { type: 'own', folder });
      homes.set(keyOf(ref), { file: path.join(folder, fitFileName(escapeFileName(ref.name), '.yaml')), own: true, ref });
    } else {
      // No folder read would hold a file of its own: beside the most related object all the same.
      placements.set(keyOf(ref), { type: 'beside', file: top.file, related: top.related });
      homes.set(keyOf(ref), { file: top.file, own: false, ref });
      declare(top.file, ref);
    }
    return true;
  };

  const added = new Set(input.added.map(keyOf));
  // Placing an object may give a home to the new objects related to it: they are placed next.
  const visit = (start: ObjectRef, first: (ref: ObjectRef) => boolean): void => {
    const stack = [start];
    let placeFirst = first;
    while (stack.length > 0) {
      const ref = stack.pop();
      if (ref === undefined || placements.has(keyOf(ref))) continue;
      if (!placeFirst(ref)) continue;
      placeFirst = place;
      for (const other of relatedTo(ref)) if (added.has(keyOf(other)) && !placements.has(keyOf(other))) stack.push(other);
    }
  };
  for (const ref of input.added) visit(ref, place);
  // What is left is related to nothing declared: a file of its own each, in order.
  for (const ref of input.added) {
    visit(ref, (own) => {
      const folder = ownFolder(own, []);
      if (folder === undefined) {
        placements.set(keyOf(own), { type: 'none', why: 'nothing related to it is declared, and the project reads no folder that a file of its own would be read from (list a folder in `manifests`)' });
        return false;
      }
      placements.set(keyOf(own), { type: 'own', folder });
      homes.set(keyOf(own), { file: path.join(folder, fitFileName(escapeFileName(own.name), '.yaml')), own: true, ref: own });
      return true;
    });
  }
  return placements;
}
