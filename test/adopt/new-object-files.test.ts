/**
 * Where `drift --adopt` writes the objects added on the gateway (src/adopt/new-object-files.ts),
 * as a property over generated layouts: declared objects of every kind spread over shared
 * files and files of their own (`<kind>/<name>.yaml`), files that have the name a new object
 * would get, links between declared and new objects, a project that reads a folder or lists
 * its files. Each run writes the layout, adopts the new objects with `adoptDrift` and checks:
 * - each new object is declared once, in a file that declares one of its related objects
 *   (its neighbours, and the objects of its kind that share one of them), or in a new file of
 *   its own only when no shared file declares a related object or a related object has a
 *   file of its own; it is not adopted only when the project reads no folder and nothing
 *   related is declared;
 * - a new file has a name that is no other file's where case or normalisation is ignored;
 * - every file keeps its text as its start (no line lost), and another object's own file is
 *   never given an object in a project that reads a folder (one that lists its files reads
 *   no new file: the object goes beside its related object all the same).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { adoptDrift } from '../../src/adopt/index.js';
import { placeNewObjects } from '../../src/adopt/new-object-files.js';
import type { DriftReport } from '../../src/engine/drift-report.js';
import { DRIFT_FORMAT_VERSION } from '../../src/engine/drift-report.js';
import type { Link, ObjectRef, State, StateObject } from '../../src/engine/model.js';
import { escapeFileName, fileNameKey, fitFileName } from '../../src/export/names.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { KINDS } from '../../src/kinds/index.js';
import { drillMode, drillSeed } from '../drills/record.js';

const TYPES = KINDS.map((k) => k.type);
/** Names that are one file on some file system (case, NFC/NFD), need escaping, or are alike. */
const NAMES = ['shop', 'Shop', 'api', 'API', 'a', 'b', 'caf\u00e9', 'cafe\u0301', 'x.y', 'a/b', 'con'];
/** The shared files a declared object may be in (besides a file of its own). */
const SHARED = ['m/hosts.yaml', 'm/mappings/api.yaml', 'm/mappings/shop.yaml'];
const OWN = SHARED.length;
const SQUAT = SHARED.length + 1;

const key = (ref: ObjectRef): string => `${ref.kind}\u0000${ref.name}`;
const objectArb = fc.record({ kind: fc.constantFrom(...TYPES), name: fc.constantFrom(...NAMES) });

const layoutArb = fc
  .record({
    declared: fc.uniqueArray(objectArb, { selector: key, maxLength: 8 }),
    added: fc.uniqueArray(objectArb, { selector: key, minLength: 1, maxLength: 5 }),
    homes: fc.array(fc.nat(SQUAT), { minLength: 8, maxLength: 8 }),
    links: fc.array(fc.tuple(fc.nat(12), fc.nat(12)), { maxLength: 12 }),
    listed: fc.boolean(),
  })
  .map((l) => ({ ...l, added: l.added.filter((a) => !l.declared.some((d) => key(d) === key(a))) }))
  .filter((l) => l.added.length > 0);

type Layout = typeof layoutArb extends fc.Arbitrary<infer T> ? T : never;

const ownFile = (ref: ObjectRef): string => `m/${ref.kind}/${fitFileName(escapeFileName(ref.name), '.yaml')}`;
const documentText = (ref: ObjectRef): string => `apiVersion: gwops/v1\nkind: ${ref.kind}\nname: ${JSON.stringify(ref.name)}\n`;

/** The files of a layout (relative paths), each with the objects it declares. */
function filesOf(layout: Layout): Map<string, ObjectRef[]> {
  const files = new Map<string, ObjectRef[]>();
  const taken = new Set<string>();
  layout.declared.forEach((object, i) => {
    const home = layout.homes[i] ?? 0;
    let file = SHARED[home] ?? SHARED[0] ?? '';
    const squatted = layout.added[i % layout.added.length];
    if (home === OWN) file = ownFile(object);
    // The file a new object's own file would have, holding another object.
    else if (home === SQUAT && squatted) file = ownFile(squatted);
    if (home >= OWN && taken.has(fileNameKey(file))) file = SHARED[0] ?? '';
    if (home >= OWN) taken.add(fileNameKey(file));
    files.set(file, [...(files.get(file) ?? []), object]);
  });
  return files;
}

function state(objects: readonly ObjectRef[], links: readonly Link[], fileOf: (ref: ObjectRef) => string | undefined): State {
  const byKind = new Map<ResourceType, Map<string, StateObject>>();
  for (const ref of objects) {
    const file = fileOf(ref);
    const map = byKind.get(ref.kind) ?? new Map<string, StateObject>();
    map.set(ref.name, { kind: ref.kind, name: ref.name, attributes: {}, ...(file === undefined ? {} : { source: { file, line: 1, column: 1 } }) });
    byKind.set(ref.kind, map);
  }
  return { objects: byKind, links };
}

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(folder, entry.name));
      else out.push(relative(dir, join(folder, entry.name)));
    }
  };
  await walk(dir);
  return out.sort();
}

/** Runs one layout; returns what is wrong with the result (empty when it holds). */
async function trial(root: string, layout: Layout, n: number): Promise<string[]> {
  const dir = join(root, `t${n}`);
  const files = filesOf(layout);
  const before = new Map<string, string>();
  for (const [file, objects] of files) {
    const text = `# ${file}\n${objects.map(documentText).join('---\n')}`;
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
    before.set(file, text);
  }
  const all = [...layout.declared, ...layout.added];
  const declaredKeys = new Set(layout.declared.map(key));
  const links: Link[] = [];
  for (const [i, j] of layout.links) {
    const from = all[i % all.length];
    const to = all[j % all.length];
    if (from && to && key(from) !== key(to)) links.push({ from, relationship: 'related', to });
  }
  const fileOf = new Map<string, string>();
  for (const [file, objects] of files) for (const o of objects) fileOf.set(key(o), file);
  const desired = state(
    layout.declared,
    links.filter((l) => declaredKeys.has(key(l.from)) && declaredKeys.has(key(l.to))),
    (ref) => fileOf.get(key(ref)),
  );
  const live = state(all, links, () => undefined);
  const report: DriftReport = { formatVersion: DRIFT_FORMAT_VERSION, drifted: true, entries: [], ignored: [], expiredIgnores: [], attribution: { since: [] }, gatewayDrifted: true };
  const manifestPaths = layout.listed ? [...files.keys()] : ['m'];
  await mkdir(join(dir, 'm'), { recursive: true });
  const result = await adoptDrift(
    { report, desired, live, cwd: dir, adoptDeletions: false, origins: () => undefined, targets: {} },
    manifestPaths,
    layout.added.map((ref) => ({ kind: ref.kind, name: ref.name, text: documentText(ref) })),
    [],
  );

  const problems: string[] = [];
  const after = new Map<string, { text: string; objects: ObjectRef[] }>();
  for (const file of await allFiles(dir)) {
    const text = await readFile(join(dir, file), 'utf8');
    const objects = parseAllDocuments(text).map((d) => d.toJS() as ObjectRef);
    after.set(file, { text, objects });
  }
  // Every file keeps its text; another object's own file is given nothing.
  for (const [file, text] of before) {
    const now = after.get(file)?.text ?? '';
    if (!now.startsWith(text)) problems.push(`${file}: a line that was there is lost`);
    const objects = files.get(file) ?? [];
    const only = objects[0];
    // (A project that lists its files reads no file of its own: a new object goes beside its related object even there.)
    if (!layout.listed && objects.length === 1 && only && basename(file) === fitFileName(escapeFileName(only.name), '.yaml') && now !== text) problems.push(`${file}: the own file of ${only.kind} '${only.name}' was given another object`);
  }
  // No two files of one folder are one file where case or normalisation is ignored.
  const keys = new Set<string>();
  for (const file of after.keys()) {
    const k = `${dirname(file)}/${fileNameKey(basename(file))}`;
    if (keys.has(k)) problems.push(`${file}: another file of its folder has its name where case or normalisation is ignored`);
    keys.add(k);
  }
  const where = new Map<string, string[]>();
  for (const [file, { objects }] of after) for (const o of objects) where.set(key(o), [...(where.get(key(o)) ?? []), file]);
  const neighbours = (ref: ObjectRef): ObjectRef[] =>
    links.flatMap((l) => (key(l.from) === key(ref) ? [l.to] : key(l.to) === key(ref) ? [l.from] : []));
  const isOwn = (file: string, ref: ObjectRef): boolean => {
    const objects = after.get(file)?.objects ?? [];
    return objects.length === 1 && new RegExp(`^${escapeFileName(ref.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:~\\d+)?\\.yaml$`).test(basename(file));
  };
  for (const ref of layout.added) {
    const what = `${ref.kind} '${ref.name}'`;
    const related = new Map<string, ObjectRef>();
    for (const neighbour of neighbours(ref)) {
      related.set(key(neighbour), neighbour);
      for (const sibling of neighbours(neighbour)) if (sibling.kind === ref.kind && key(sibling) !== key(ref)) related.set(key(sibling), sibling);
    }
    const sameKindOwn = [...where].flatMap(([k, files]) => (k.startsWith(`${ref.kind}\u0000`) && k !== key(ref) ? files.filter((f) => isOwn(f, { kind: ref.kind, name: k.slice(ref.kind.length + 1) })).map((file) => ({ file, own: true })) : []));
    const relatedFiles = [...related.values()].flatMap((o) => (where.get(key(o)) ?? []).map((file) => ({ file, own: isOwn(file, o) })));
    const found = where.get(key(ref)) ?? [];
    const [file] = found;
    if (found.length > 1) problems.push(`${what} is declared ${found.length} times`);
    if (file === undefined) {
      const listedSkip = layout.listed && relatedFiles.length === 0 && result.skipped.some((s) => s.startsWith(`${what} was added on the gateway: not adopted`));
      if (!listedSkip) problems.push(`${what} was not adopted although ${layout.listed ? 'a related object is declared' : 'the project reads a folder'}`);
      continue;
    }
    if (before.has(file) || !isOwn(file, ref)) {
      if (!relatedFiles.some((r) => r.file === file)) problems.push(`${what} went into ${file}, which declares nothing related to it`);
    } else {
      if (layout.listed) problems.push(`${what} went into a new file ${file} that the project does not read`);
      if (basename(dirname(file)) !== ref.kind && !relatedFiles.concat(sameKindOwn).some((r) => r.own && dirname(r.file) === dirname(file))) {
        problems.push(`${what} got a file of its own, ${file}, neither in a folder named after its kind nor beside the own files of its kind`);
      }
      if (relatedFiles.some((r) => !r.own && r.file !== file) && !relatedFiles.some((r) => r.own && r.file !== file)) {
        problems.push(`${what} got a file of its own, ${file}, although ${relatedFiles.find((r) => !r.own)?.file ?? ''} declares an object related to it`);
      }
    }
  }
  return problems;
}

describe('drift --adopt places each new object beside its related objects, else in a file of its own', () => {
  it('holds for generated layouts', { timeout: 600_000 }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'gwops-new-objects-'));
    let n = 0;
    try {
      await fc.assert(
        fc.asyncProperty(layoutArb, async (layout) => {
          expect(await trial(root, layout, n++)).toEqual([]);
        }),
        { numRuns: drillMode() === 'full' ? 2000 : 60, seed: drillSeed(43) },
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('an attribute that names another object relates the two', () => {
  it('places a new mapping whose IP rules name a declared IP address list in the file of that list', () => {
    const rules = { ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, ipAddressListIds: ['office'] }] } } };
    const object = (kind: ResourceType, name: string, file?: string, attributes: Record<string, unknown> = {}): StateObject => ({
      kind,
      name,
      attributes,
      ...(file === undefined ? {} : { source: { file, line: 1, column: 1 } }),
    });
    const states = (objects: StateObject[]): State => {
      const byKind = new Map<ResourceType, Map<string, StateObject>>();
      for (const o of objects) byKind.set(o.kind, new Map([...(byKind.get(o.kind) ?? []), [o.name, o]]));
      return { objects: byKind, links: [] };
    };
    const declared = [object('ip-address-list', 'office', 'm/lists.yaml'), object('mapping', 'first', 'm/mappings.yaml')];
    const placements = placeNewObjects({
      added: [{ kind: 'mapping', name: 'by-hand' }],
      desired: states(declared),
      live: states([...declared, object('mapping', 'by-hand', undefined, rules)]),
      folders: ['/p/m'],
      cwd: '/p',
    });
    expect(placements.get('mapping\u0000by-hand')).toEqual({ type: 'beside', file: '/p/m/lists.yaml', related: { kind: 'ip-address-list', name: 'office' } });
  });
});
