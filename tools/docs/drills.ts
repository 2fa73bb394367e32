/**
 * `npm run drills`: runs the reliability drills (`test/drills/*.test.ts`) with their full
 * matrix (`GWOPS_DRILLS=full`) and `GWOPS_DRILLS_OUT` set to a fresh temporary directory,
 * then writes docs/reliability.md from every drill result found there
 * (tools/docs/reliability.ts). Exits with vitest's exit code, so a drill that finds a
 * violation fails the command (the report is written all the same, with the figure
 * flagged).
 *
 * `npm run drills -- --sample` runs the seeded samples that `npm test` runs instead (a
 * quick report, marked as such on the page). `node dist-tools/docs/drills.js --from <dir>` only
 * renders the results already in `<dir>` (add `--sample` when they are samples).
 * Development tooling: it runs vitest from the repository's node_modules.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { writeFileAtomic } from '#src/core/staged-files.js';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DrillRun } from './reliability.js';
import { readDrillTables, reliabilityMarkdown } from './reliability.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The machine, for the report: CPU model and count, memory, OS. */
export function machineDescription(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU';
  const memory = `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`;
  return `${cpus.length} × ${model}, ${memory}, ${os.platform()} ${os.release()}`;
}

/** Runs `command ...args` in the repository with inherited output. @returns its exit code (1 when a signal ended it) */
export function runInRepository(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, stdio: 'inherit', env });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs vitest on test/drills with the full matrix (or the seeded samples), writing results to `out`. @returns its exit code */
function runDrills(out: string, matrix: 'full' | 'sample'): Promise<number> {
  const vitest = path.join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
  return runInRepository(process.execPath, [vitest, 'run', 'test/drills'], { ...process.env, GWOPS_DRILLS: matrix === 'full' ? 'full' : '', GWOPS_DRILLS_OUT: out });
}

/** Runs the drills (unless `--from <dir>`) and writes docs/reliability.md. @returns the exit code */
export async function main(args: readonly string[]): Promise<number> {
  const fromIndex = args.indexOf('--from');
  const from = fromIndex >= 0 ? args[fromIndex + 1] : undefined;
  const dir = from ?? (await mkdtemp(path.join(os.tmpdir(), 'gwops-drills-')));
  try {
    const started = Date.now();
    const matrix = args.includes('--sample') ? 'sample' : 'full';
    const code = from === undefined ? await runDrills(dir, matrix) : 0;
    const drills = await readDrillTables(dir);
    if (drills.length === 0) {
      process.stderr.write(`no drill results in ${dir}; docs/reliability.md not written\n`);
      return code === 0 ? 1 : code;
    }
    const run: DrillRun = {
      date: new Date().toISOString().slice(0, 10),
      machine: machineDescription(),
      node: process.version,
      seconds: from === undefined ? (Date.now() - started) / 1000 : undefined,
      matrix,
    };
    const file = path.join(REPO, 'docs', 'reliability.md');
    await writeFileAtomic(file, reliabilityMarkdown(drills, run));
    process.stderr.write(`wrote ${path.relative(REPO, file)} from ${drills.length} drill results${code === 0 ? '' : ` (the drills failed: exit ${code})`}\n`);
    return code;
  } finally {
    if (from === undefined) await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
