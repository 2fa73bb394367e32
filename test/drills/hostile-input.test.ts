/**
 * Drill "hostile input": seeded mutations of valid manifests (random edits, wrong types,
 * deep nesting, long strings, unicode and invalid UTF-8, duplicate keys) and hostile
 * files (YAML alias bombs, a 50 MB file, symlink loops, a FIFO, a device). The real gwops
 * process runs `validate`, which must exit 0 or 1 with located messages, within a memory
 * bound and without hanging (bounded by CPU time and stalls, not by wall-clock time: see
 * test/support/bounded-process.ts); then, in-process, `plan` must send no request when
 * validation fails. `npm test` runs three mutation families (seeded) and every hostile file.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BoundedRun } from '../support/bounded-process.js';
import { hangBoundsText, runBounded } from '../support/bounded-process.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { DrillGateway } from './support.js';
import { leakedSecrets, prng, sample, showsCrash, startDrillGateway, writeDrillManifests } from './support.js';

/** Peak resident memory of one gwops process, in bytes; the watchdog kills it above. */
const MEMORY_BOUND = 1024 * 1024 * 1024;

interface Figures {
  trials: number;
  valid: number;
  refused: number;
  unlocated: number;
  badExit: number;
  crashes: number;
  hangs: number;
  overMemory: number;
  requests: number;
  secrets: number;
}

const empty = (): Figures => ({ trials: 0, valid: 0, refused: 0, unlocated: 0, badExit: 0, crashes: 0, hangs: 0, overMemory: 0, requests: 0, secrets: 0 });

type Mutation = (text: string, random: () => number) => string | Buffer;

const pick = <T,>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)] as T;
const at = (text: string, random: () => number): number => Math.floor(random() * (text.length + 1));

/** Seeded mutations of a valid manifest, by family. */
const MUTATIONS: Readonly<Record<string, Mutation>> = {
  'random edits': (text, random) => {
    let out = text;
    const edits = 1 + Math.floor(random() * 5);
    for (let i = 0; i < edits; i++) {
      const p = at(out, random);
      const what = random();
      const ch = pick([':', '-', '{', '}', '[', ']', '"', "'", '&', '*', '!', '|', '>', '#', '\n', ' ', '\t', 'x', '0'], random);
      out = what < 0.4 ? out.slice(0, p) + ch + out.slice(p) : what < 0.7 ? out.slice(0, p) + out.slice(p + 1) : out.slice(0, p) + ch + out.slice(p + 1);
    }
    return out;
  },
  'wrong types': (text, random) => {
    const values = [...text.matchAll(/: ([^\n{[]+)\n/g)];
    const target = values.length > 0 ? pick(values, random) : undefined;
    if (!target || target.index === undefined) return text;
    const replacement = pick(['[1, 2]', '{ a: 1 }', 'true', '-1', '1e400', 'null', '~', '"0x1F"', '.nan'], random);
    return text.slice(0, target.index) + `: ${replacement}\n` + text.slice(target.index + target[0].length);
  },
  'deep nesting': (text, random) => {
    const depth = 1_000 + Math.floor(random() * 20_000);
    return text.replace('backendPath: /', `backendPath: ${'['.repeat(depth)}${']'.repeat(depth)}`);
  },
  'long strings': (text, random) => text.replace(/name: (\S+)/, `name: $1${'x'.repeat(100_000 + Math.floor(random() * 2_000_000))}`),
  unicode: (text, random) => {
    const p = at(text, random);
    return text.slice(0, p) + pick(['\u202e', '\u0000', '\ud800', '😀', '\u200b', '\ufeff', 'é', '\u0085', '\u2028'], random) + text.slice(p);
  },
  'invalid UTF-8': (text, random) => {
    const bytes = Buffer.from(text);
    const p = Math.floor(random() * bytes.length);
    return Buffer.concat([bytes.subarray(0, p), Buffer.from([pick([0xff, 0xc0, 0xed, 0x80, 0xf8], random)]), bytes.subarray(p)]);
  },
  'duplicate keys': (text, random) => {
    const lines = text.split('\n');
    const keyed = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\s*[A-Za-z-]+:/.test(l));
    const [line, index] = keyed.length > 0 ? pick(keyed, random) : ['', 0];
    lines.splice(index + 1, 0, line);
    return lines.join('\n');
  },
};

/** A YAML "billion laughs": `levels` anchors, each aliasing the previous one ten times. */
function aliasBomb(levels: number): string {
  const lines = ['apiVersion: gwops/v1', 'kind: back-end-group', 'name: bomb', 'attributes:', '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= levels; i++) lines.push(`  a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
  return lines.join('\n') + '\n';
}

/** What validate said when it did not locate a refusal (for the failure message). */
const unlocatedSamples: string[] = [];

/** Counts a run the watchdog killed, or that peaked above the memory bound (true when it was killed). */
function killed(run: BoundedRun, into: Figures): boolean {
  if (run.killed === 'memory' || (run.maxRssBytes ?? 0) > MEMORY_BOUND) into.overMemory += 1;
  else if (run.killed !== undefined) into.hangs += 1;
  return run.killed !== undefined;
}

/** Runs validate and plan on `path` and adds the figures to `into`. */
async function check(gateway: DrillGateway, path: string, into: Figures): Promise<void> {
  into.trials += 1;
  const validate = await runBounded(['validate', path], { env: { CI: 'true' }, memoryBytes: MEMORY_BOUND });
  const outputs = [validate.stdout, validate.stderr];
  if (killed(validate, into)) {
    into.secrets += leakedSecrets(outputs, gateway.secrets).length;
    return;
  }
  if (validate.code === 0) into.valid += 1;
  else if (validate.code === 1) into.refused += 1;
  else into.badExit += 1;
  // Located: file:line:column, or (for what is not a readable file) the path named in the one message.
  // validate prints its diagnostics as data on stdout; a file it cannot read is one error line on stderr.
  const said = validate.stdout + validate.stderr;
  if (validate.code === 1 && !/:\d+:\d+: error:/.test(said) && !/cannot read '/.test(validate.stderr)) {
    into.unlocated += 1;
    unlocatedSamples.push(`${path}: ${said.slice(0, 300)}`);
  }
  if (showsCrash(validate)) into.crashes += 1;
  if (validate.code !== 0) {
    // In-process: plan validates first, in the same way, input that validate was just seen to end on.
    gateway.emulator.requestLog.length = 0;
    const plan = await gateway.cli(['plan', path, ...gateway.direct]);
    outputs.push(plan.stdout, plan.stderr);
    if (plan.code !== 1) into.badExit += 1;
    into.requests += gateway.emulator.requestLog.length;
  }
  into.secrets += leakedSecrets(outputs, gateway.secrets).length;
}

describe('drill: hostile input', () => {
  it('validate returns 0 or 1 with located messages within bounds, and plan sends nothing for invalid input', async () => {
    const seed = drillSeed(424242);
    const random = prng(seed);
    const full = drillMode() === 'full';
    const perFamily = full ? 40 : 1;
    // A seeded sample of the families in npm test (each case starts a gwops process); all of them in full.
    const families = full ? Object.entries(MUTATIONS) : sample(Object.entries(MUTATIONS), 3, random);
    const gateway = await startDrillGateway();
    const rows: (string | number)[][] = [];
    const row = (name: string, f: Figures): void => {
      rows.push([name, f.trials, f.valid, f.refused, f.unlocated, f.badExit, f.crashes, f.hangs, f.overMemory, f.requests, f.secrets]);
    };
    try {
      const m = await writeDrillManifests(gateway.dir);
      const valid = await readFile(join(m.target, 'all.yaml'), 'utf8');
      const fuzz = join(gateway.dir, 'fuzz');
      await mkdir(fuzz);
      let n = 0;
      for (const [family, mutate] of families) {
        const f = empty();
        for (let i = 0; i < perFamily; i++) {
          const file = join(fuzz, `case-${(n += 1)}.yaml`);
          await writeFile(file, mutate(valid, random));
          await check(gateway, file, f);
        }
        row(`mutation: ${family}`, f);
      }

      const special = async (name: string, make: () => Promise<string>): Promise<void> => {
        const f = empty();
        await check(gateway, await make(), f);
        row(name, f);
        expect(f.refused, name).toBe(1);
      };
      await special('YAML bomb of nested aliases (10^9 nodes)', async () => {
        const file = join(gateway.dir, 'bomb.yaml');
        await writeFile(file, aliasBomb(9));
        return file;
      });
      await special('a 50 MB file', async () => {
        const file = join(gateway.dir, 'big.yaml');
        const doc = valid.split('---\n')[0] ?? '';
        await writeFile(file, `${doc}---\n`.repeat(Math.ceil((50 * 1024 * 1024) / (doc.length + 4))));
        return file;
      });
      await special('a directory loop through symlinks', async () => {
        const dir = join(gateway.dir, 'loop');
        await mkdir(dir);
        await symlink(dir, join(dir, 'again'));
        await symlink(join(dir, 'self.yaml'), join(dir, 'self.yaml'));
        return dir;
      });
      await special('a FIFO', () => {
        const fifo = join(gateway.dir, 'pipe.yaml');
        execFileSync('mkfifo', [fifo]);
        return Promise.resolve(fifo);
      });
      await special('a device (/dev/zero)', () => Promise.resolve('/dev/zero'));
      await special('a symlink to a device inside a directory', async () => {
        const dir = join(gateway.dir, 'devices');
        await mkdir(dir);
        await symlink('/dev/zero', join(dir, 'zero.yaml'));
        return dir;
      });
    } finally {
      await gateway.close();
    }
    const violations = recordDrill({
      id: 'hostile-input',
      title: 'Hostile input',
      description:
        'Seeded mutations of a valid manifest file and hostile files, given to gwops validate (its own process) and, when ' +
        'invalid, to gwops plan against an emulator. validate must return exit 0 or 1, locate every refusal ' +
        `(file:line:column, or the file for what cannot be read), peak below ${MEMORY_BOUND / 1048576} MiB of resident memory and ` +
        `${hangBoundsText()}; plan must send no request when validation fails.`,
      seed,
      columns: ['input', 'trials', 'valid', 'refused', 'unlocated', 'other exit codes', 'crashes', 'hangs', 'over memory bound', 'requests sent', 'secrets found'],
      rows,
      mustBeZero: ['unlocated', 'other exit codes', 'crashes', 'hangs', 'over memory bound', 'requests sent', 'secrets found'],
    });
    expect(violations, unlocatedSamples.join('\n')).toEqual([]);
  }, 3_600_000);
});
