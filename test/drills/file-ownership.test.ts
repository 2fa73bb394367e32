/**
 * Drill "file ownership": objects with seeded names that are one file on some file system
 * or none at all (case variants, Unicode NFC and NFD forms, names ending in `.content`,
 * Windows device names, names past 255 bytes) are exported (per object and per kind),
 * initialised (`init --from-gateway`) and adopted (`drift --adopt` of the half whose
 * manifests were removed). Each result must have every file with one owner (no two names
 * that are one file where case or normalisation is ignored, none written twice, none past
 * 255 bytes, no device name), every object declared once with its own content, validate,
 * and plan to zero changes.
 */
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { fileNameKey } from '../../src/export/names.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { Run } from './support.js';
import { prng, startDrillGateway } from './support.js';

const DEVICES = ['CON', 'nul', 'Aux', 'com1', 'LPT9', 'con.content', 'NUL.yaml', 'prn.txt'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The seeded names of one trial: each class of name that could share a file, or have none. */
function drawNames(random: () => number): string[] {
  const word = (): string => Array.from({ length: 3 + Math.floor(random() * 4) }, () => LETTERS[Math.floor(random() * LETTERS.length)]).join('');
  const names = new Set<string>();
  const w = word();
  for (const n of [w, w.toUpperCase(), `${w.charAt(0).toUpperCase()}${w.slice(1)}`]) names.add(n);
  const accented = `${word()}-caf\u00e9`;
  names.add(accented);
  names.add(accented.normalize('NFD'));
  names.add('stra\u00dfe');
  names.add('STRASSE');
  const c = word();
  for (const n of [c, `${c}.content`, `${c}.content.content`, `${c.toUpperCase()}.CONTENT`]) names.add(n);
  names.add(DEVICES[Math.floor(random() * DEVICES.length)] ?? 'CON');
  names.add(DEVICES[Math.floor(random() * DEVICES.length)] ?? 'nul');
  const long = `${word()}-${'\u00e9'.repeat(124 + Math.floor(random() * 8))}`;
  for (const n of [long, `${long}x`, long.toUpperCase()]) names.add(n);
  return [...names];
}

/** A specification whose text names its document, so that a content file read for another document shows. */
function spec(name: string): string {
  return `openapi: 3.0.3\ninfo:\n  title: ${JSON.stringify(name)}\n  version: 1.0.0\npaths: {}\n`;
}

function manifests(names: readonly string[]): string {
  const docs = names.flatMap((name) => [
    `apiVersion: gwops/v1\nkind: back-end-group\nname: ${JSON.stringify(name)}\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n`,
    `apiVersion: gwops/v1\nkind: openapi-document\nname: ${JSON.stringify(name)}\ncontent:\n  fromFile: spec-${names.indexOf(name)}.yaml\n`,
  ]);
  return docs.join('---\n');
}

/** Every file under `dir` (paths relative to it), hidden ones included. */
async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) await walk(join(folder, entry.name));
      else out.push(relative(dir, join(folder, entry.name)));
    }
  };
  await walk(dir);
  return out;
}

const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

interface Figures {
  results: number;
  sameFile: number;
  writtenTwice: number;
  unportable: number;
  lost: number;
  wrongContent: number;
  invalid: number;
  notZero: number;
}

/**
 * Checks one result: the project in `dir` (its manifests under `manifests`), `written` the
 * files the run listed on stdout (relative to `dir`), `names` the objects of each kind.
 */
async function check(gateway: { cli(args: readonly string[]): Promise<Run> }, dir: string, manifestsDir: string, written: readonly string[], names: readonly string[], connection: readonly string[], f: Figures, problems: string[]): Promise<void> {
  f.results += 1;
  const files = await allFiles(dir);
  const byFolder = new Map<string, Set<string>>();
  for (const file of files) {
    const key = fileNameKey(basename(file));
    const folder = byFolder.get(dirname(file)) ?? new Set<string>();
    if (folder.has(key)) {
      f.sameFile += 1;
      problems.push(`${dir}: two files are ${file} where case or normalisation is ignored`);
    }
    folder.add(key);
    byFolder.set(dirname(file), folder);
    if (Buffer.byteLength(basename(file)) > 255 || WINDOWS_DEVICE.test(basename(file).split('.')[0] ?? '')) {
      f.unportable += 1;
      problems.push(`${dir}: unportable file name ${file}`);
    }
  }
  const listed = written.map((file) => fileNameKey(file));
  if (new Set(listed).size !== listed.length) {
    f.writtenTwice += 1;
    problems.push(`${dir}: a file is listed twice among the written ones`);
  }
  // Every object declared once, with its own content.
  const declared = new Map<string, number>();
  for (const file of files.filter((name) => name.startsWith(manifestsDir) && /\.ya?ml$/.test(name) && !basename(name).startsWith('.'))) {
    const text = await readFile(join(dir, file), 'utf8');
    for (const doc of parseAllDocuments(text)) {
      const value: unknown = doc.toJSON();
      if (typeof value !== 'object' || value === null || (value as Record<string, unknown>).apiVersion !== 'gwops/v1') continue;
      const { kind, name, content } = value as { kind: string; name: string; content?: { fromFile?: string } };
      declared.set(`${kind}\u0000${name}`, (declared.get(`${kind}\u0000${name}`) ?? 0) + 1);
      if (kind === 'openapi-document') {
        const bytes = content?.fromFile === undefined ? undefined : await readFile(join(dir, dirname(file), content.fromFile), 'utf8').catch(() => undefined);
        if (bytes !== spec(name)) {
          f.wrongContent += 1;
          problems.push(`${dir}: openapi-document ${JSON.stringify(name)} has the content of another or none`);
        }
      }
    }
  }
  for (const kind of ['back-end-group', 'openapi-document']) {
    for (const name of names) {
      if (declared.get(`${kind}\u0000${name}`) !== 1) {
        f.lost += 1;
        problems.push(`${dir}: ${kind} ${JSON.stringify(name)} is declared ${declared.get(`${kind}\u0000${name}`) ?? 0} times`);
      }
    }
  }
  const config = ['--config', join(dir, 'gwops.yaml')];
  const validate = await gateway.cli(['validate', ...config]);
  if (validate.code !== 0) {
    f.invalid += 1;
    problems.push(`${dir}: validate exits ${validate.code}: ${validate.stdout}${validate.stderr}`);
  }
  const plan = await gateway.cli(['plan', '--detailed-exitcode', ...config, ...connection]);
  if (plan.code !== 0) {
    f.notZero += 1;
    problems.push(`${dir}: plan exits ${plan.code}: ${plan.stdout.slice(0, 2000)}${plan.stderr}`);
  }
}

/** The files a run listed on stdout, relative to `dir` (export lists them relative to its folder, init relative to the working directory). */
function listed(stdout: string, base: string, dir: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => relative(dir, join(base, line)));
}

async function trial(random: () => number, into: Record<string, Figures>, problems: string[]): Promise<void> {
  const gateway = await startDrillGateway();
  try {
    const names = drawNames(random);
    const source = join(gateway.dir, 'source');
    await mkdir(source);
    await writeFile(join(source, 'all.yaml'), manifests(names));
    for (const [i, name] of names.entries()) await writeFile(join(source, `spec-${i}.yaml`), spec(name));
    const applied = await gateway.cli(['apply', '--yes', join(source, 'all.yaml'), ...gateway.direct]);
    expect(applied.stderr).not.toMatch(/Error/);
    const kinds = ['--kind', 'back-end-group', '--kind', 'openapi-document'];

    for (const layout of ['per-object', 'per-kind'] as const) {
      const out = join(gateway.dir, `export-${layout}`);
      const run = await gateway.cli(['export', '--out', out, '--layout', layout, ...kinds, ...gateway.direct]);
      expect(run.code, run.stderr).toBe(0);
      await check(gateway, out, '', listed(run.stdout, out, out), names, gateway.direct, (into[`export, ${layout}`] ??= zero()), problems);
    }

    const init = join(gateway.dir, 'init');
    const initRun = await gateway.cli(['init', init, '--from-gateway', ...kinds, ...gateway.direct]);
    expect(initRun.code, initRun.stderr).toBe(0);
    // init lists every file it wrote, relative to its working directory (the repository).
    await check(gateway, init, 'manifests', listed(initRun.stdout, process.cwd(), init).filter((f) => f.startsWith('manifests')), names, gateway.direct, (into['init --from-gateway'] ??= zero()), problems);

    // Adoption: the exported project, owning every object, with the manifests of about half of them removed.
    const adopt = join(gateway.dir, 'adopt');
    await cp(join(gateway.dir, 'export-per-object'), adopt, { recursive: true });
    await writeFile(join(adopt, 'gwops.yaml'), `${await readFile(join(adopt, 'gwops.yaml'), 'utf8')}ownership:\n  back-end-group: ['type==back-end-group']\n  openapi-document: ['type==openapi-document']\n`);
    for (const file of await readdir(join(adopt, 'back-end-group'))) if (random() < 0.5) await rm(join(adopt, 'back-end-group', file));
    // A document's manifest goes with its content file.
    for (const file of (await readdir(join(adopt, 'openapi-document'))).filter((f) => !f.includes('.content.'))) {
      if (random() >= 0.5) continue;
      const doc: unknown = parseAllDocuments(await readFile(join(adopt, 'openapi-document', file), 'utf8'))[0]?.toJSON();
      const from = (doc as { content?: { fromFile?: string } } | undefined)?.content?.fromFile;
      await rm(join(adopt, 'openapi-document', file));
      if (from !== undefined) await rm(join(adopt, 'openapi-document', from));
    }
    const drift = await gateway.cli(['drift', '--adopt', '--config', join(adopt, 'gwops.yaml'), ...gateway.direct]);
    expect([0, 2], drift.stderr).toContain(drift.code);
    await check(gateway, adopt, '', [], names, gateway.direct, (into['drift --adopt'] ??= zero()), problems);
  } finally {
    await gateway.close();
  }
}

function zero(): Figures {
  return { results: 0, sameFile: 0, writtenTwice: 0, unportable: 0, lost: 0, wrongContent: 0, invalid: 0, notZero: 0 };
}

describe('drill: file ownership', () => {
  it('names that share a file or fit none, exported, initialised and adopted: one owner per file, every object declared, plans to zero', async () => {
    const seed = drillSeed(4242);
    const random = prng(seed);
    const trials = drillMode() === 'full' ? 8 : 1;
    const figures: Record<string, Figures> = {};
    const problems: string[] = [];
    for (let i = 0; i < trials; i++) await trial(random, figures, problems);
    const rows = Object.entries(figures).map(([label, f]) => [label, f.results, f.sameFile, f.writtenTwice, f.unportable, f.lost, f.wrongContent, f.invalid, f.notZero]);
    const violations = recordDrill({
      id: 'file-ownership',
      title: 'File ownership',
      description:
        'Objects of two kinds (one with content) named by seeded draws of case variants, NFC and NFD forms, names ending in .content, ' +
        'Windows device names and names past 255 bytes are exported (per object and per kind), initialised with init --from-gateway ' +
        'and adopted with drift --adopt. Every result must have each file with one owner (no two names that are one file where case ' +
        'or normalisation is ignored, none listed twice, none past 255 bytes or a device name), every object declared once with its ' +
        'own content, validate, and plan to zero changes.',
      seed,
      columns: ['case', 'results', 'one file for two names', 'written twice', 'unportable names', 'objects lost or doubled', 'wrong content', 'not valid', 'plan not zero'],
      rows,
      mustBeZero: ['one file for two names', 'written twice', 'unportable names', 'objects lost or doubled', 'wrong content', 'not valid', 'plan not zero'],
    });
    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  }, 3_600_000);
});
