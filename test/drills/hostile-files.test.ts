/**
 * Drill "hostile files": every option and attribute through which gwops reads a file
 * (manifest paths, `{ fromFile }` secrets, a document's `content: { fromFile }`, --config, a target's caFile and apiKeyFile,
 * --ca-file, --api-key-file, a target's overlays, apply --plan), each given a FIFO,
 * /dev/zero, another device (/dev/null), a directory, a symbolic link loop and a 2 GB sparse
 * file. The real gwops process must exit 1 with exactly one error line that names the option
 * or attribute, in bounded memory (the child's own peak resident set) and without hanging
 * (bounded by CPU time and stalls, not by wall-clock time: test/support/bounded-process.ts).
 * `npm test` runs a seeded sample; `GWOPS_DRILLS=full` every pair.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hangBoundsText, runBounded } from '../support/bounded-process.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { prng, sample } from './support.js';

/** Peak resident memory allowed to a refusal (node itself takes about 60 MiB). */
const PEAK_BYTES = 256 * 1024 * 1024;
/** The watchdog: above this the process is killed as runaway. */
const KILL_BYTES = 1024 * 1024 * 1024;

const URL = 'http://127.0.0.1:9/rest';
const backendGroup = 'apiVersion: gwops/v1\nkind: back-end-group\nname: hostile\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n';
const certificate = (file: string): string =>
  'apiVersion: gwops/v1\nkind: ssl-certificate\nname: hostile\nattributes:\n  certType: SERVER_CERT\n' +
  `  certificate: "-----BEGIN CERTIFICATE-----"\n  privateKey: { fromFile: ${JSON.stringify(file)} }\n`;

/** One way of reading a file: what to write in the project, the command, and what the error line must name. */
interface Reader {
  readonly name: string;
  /** Writes what the case needs into `dir` and returns the command's arguments and environment. */
  setup(dir: string, file: string): Promise<{ args: string[]; env?: Record<string, string> }>;
  readonly names: RegExp;
  /** Hostile files that are valid input for this reader (a directory of manifests). */
  readonly accepts?: readonly string[];
}

const project = (dir: string, target: string): Promise<void> => writeFile(join(dir, 'gwops.yaml'), `targets:\n  t:\n    url: ${URL}\n${target}`);

const READERS: readonly Reader[] = [
  { name: 'manifest path', setup: (_dir, file) => Promise.resolve({ args: ['validate', file] }), names: /^Error: cannot read '/, accepts: ['a directory'] },
  {
    name: '{ fromFile } secret',
    setup: async (dir, file) => (await writeFile(join(dir, 's.yaml'), certificate(file)), { args: ['validate', 's.yaml'] }),
    names: /^s\.yaml:7:15: error: secret 'privateKey' of ssl-certificate 'hostile': cannot read file/,
  },
  {
    name: 'content { fromFile }',
    setup: async (dir, file) => (
      await writeFile(join(dir, 'd.yaml'), `apiVersion: gwops/v1\nkind: openapi-document\nname: hostile\ncontent:\n  fromFile: ${JSON.stringify(file)}\n`), { args: ['validate', 'd.yaml'] }
    ),
    names: /^d\.yaml:5:13: error: content of openapi-document 'hostile': (cannot read file|file '.*' lies outside the project)/,
  },
  { name: '--config', setup: (_dir, file) => Promise.resolve({ args: ['validate', '--config', file, 'm.yaml'] }), names: /^Error: cannot read project file/ },
  {
    name: 'caFile of a target',
    setup: async (dir, file) => (await project(dir, `    caFile: ${JSON.stringify(file)}\n`), { args: ['plan', '--target', 't', 'm.yaml'], env: { GWOPS_API_KEY: 'k' } }),
    names: /^Error: cannot read CA file \(caFile of target 't'\)/,
  },
  {
    name: 'apiKeyFile of a target',
    setup: async (dir, file) => (await project(dir, `    apiKeyFile: ${JSON.stringify(file)}\n`), { args: ['plan', '--target', 't', 'm.yaml'] }),
    names: /^Error: cannot read API key file \(apiKeyFile of target 't'\)/,
  },
  {
    name: '--ca-file',
    setup: (_dir, file) => Promise.resolve({ args: ['plan', '--url', URL, '--ca-file', file, 'm.yaml'], env: { GWOPS_API_KEY: 'k' } }),
    names: /^Error: cannot read CA file \(--ca-file\)/,
  },
  {
    name: '--api-key-file',
    setup: (_dir, file) => Promise.resolve({ args: ['plan', '--url', URL, '--api-key-file', file, 'm.yaml'] }),
    names: /^Error: cannot read the file named by --api-key-file/,
  },
  {
    name: 'overlays of a target',
    setup: async (dir, file) => (await project(dir, `    overlays: [${JSON.stringify(file)}]\n`), { args: ['plan', '--target', 't', 'm.yaml'], env: { GWOPS_API_KEY: 'k' } }),
    names: /^Error: cannot read '/,
    accepts: ['a directory'],
  },
  { name: 'apply --plan', setup: (_dir, file) => Promise.resolve({ args: ['apply', '--plan', file, '--url', URL], env: { GWOPS_API_KEY: 'k' } }), names: /^Error: cannot read plan file/ },
];

/** The hostile files, made once in `dir`. */
async function hostileFiles(dir: string): Promise<Record<string, string>> {
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const directory = join(dir, 'directory');
  await mkdir(directory);
  await symlink(join(dir, 'loop-b'), join(dir, 'loop-a'));
  await symlink(join(dir, 'loop-a'), join(dir, 'loop-b'));
  const sparse = join(dir, 'sparse');
  await writeFile(sparse, '');
  await truncate(sparse, 2 * 1024 * 1024 * 1024);
  return { 'a FIFO': fifo, '/dev/zero': '/dev/zero', 'a device (/dev/null)': '/dev/null', 'a directory': directory, 'a symbolic link loop': join(dir, 'loop-a'), 'a 2 GB sparse file': sparse };
}

interface Figures {
  trials: number;
  refused: number;
  otherExit: number;
  killed: number;
  overMemory: number;
  notOneLine: number;
  unnamed: number;
}

describe('drill: hostile files', () => {
  it('every file-reading option and secret source refuses FIFOs, devices, directories, loops and huge files: exit 1, one line, bounded', async () => {
    const seed = drillSeed(110011);
    const random = prng(seed);
    const base = await mkdtemp(join(tmpdir(), 'gwops-hostile-files-'));
    const failures: string[] = [];
    const rows: (string | number)[][] = [];
    try {
      const files = await hostileFiles(base);
      const pairs = READERS.flatMap((reader) => Object.keys(files).filter((kind) => !reader.accepts?.includes(kind)).map((kind) => [reader, kind] as const));
      const chosen = drillMode() === 'full' ? pairs : sample(pairs, 3, random);
      for (const [reader, kind] of chosen) {
        const dir = await mkdtemp(join(base, 'case-'));
        await writeFile(join(dir, 'm.yaml'), backendGroup);
        const { args, env } = await reader.setup(dir, files[kind] ?? '');
        const run = await runBounded(args, { cwd: dir, env: { CI: 'true', ...env }, memoryBytes: KILL_BYTES });
        const lines = (run.stdout + run.stderr).split('\n').filter((l) => /: error: |^Error: /.test(l));
        const f: Figures = { trials: 1, refused: 0, otherExit: 0, killed: 0, overMemory: 0, notOneLine: 0, unnamed: 0 };
        if (run.killed) f.killed = 1;
        else if (run.code === 1) f.refused = 1;
        else f.otherExit = 1;
        if (run.killed === 'memory' || (run.maxRssBytes ?? 0) > PEAK_BYTES) f.overMemory = 1;
        if (lines.length !== 1) f.notOneLine = 1;
        if (!lines.some((l) => reader.names.test(l))) f.unnamed = 1;
        if (f.otherExit + f.killed + f.overMemory + f.notOneLine + f.unnamed > 0) {
          failures.push(`${reader.name} × ${kind}: exit ${run.code}${run.killed ? ` (killed: ${run.killed})` : ''}, ${lines.length} error lines: ${JSON.stringify(lines)}, peak RSS ${String(run.maxRssBytes)} bytes, output: ${(run.stdout + run.stderr).slice(0, 400)}`);
        }
        rows.push([reader.name, kind, f.trials, f.refused, f.otherExit, f.killed, f.overMemory, f.notOneLine, f.unnamed]);
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
    const violations = recordDrill({
      id: 'hostile-files',
      title: 'Hostile files',
      description:
        'Every option and attribute through which gwops reads a file (manifest paths, { fromFile } secrets, content { fromFile }, --config, a ' +
        "target's caFile, apiKeyFile and overlays, --ca-file, --api-key-file, apply --plan), given a FIFO, /dev/zero, /dev/null, " +
        'a directory, a symbolic link loop and a 2 GB sparse file, to the real gwops process. It must exit 1 with one error ' +
        `line naming the option or attribute, peak at less than ${PEAK_BYTES / 1048576} MiB of resident memory and ` +
        `${hangBoundsText()}.`,
      seed,
      columns: ['reader', 'file', 'trials', 'refused (exit 1)', 'other exit codes', 'killed (hang or runaway)', 'over memory bound', 'not one error line', 'option not named'],
      rows,
      mustBeZero: ['other exit codes', 'killed (hang or runaway)', 'over memory bound', 'not one error line', 'option not named'],
    });
    expect(failures).toEqual([]);
    expect(violations).toEqual([]);
  }, 3_600_000);
});
