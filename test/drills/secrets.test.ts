/**
 * Drill "secrets": every command that prints or writes something, in every format, on
 * the example project (whose certificates carry private keys from environment
 * variables) against an emulator over HTTPS: validate, plan (with a saved plan file),
 * apply, drift, history, export, and a failing apply. Across all of it (stdout, stderr,
 * saved plan and exported files, the emulator's request log) the API keys and the
 * private keys must be absent, and the API key must never be in a process's arguments.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT, leakedSecrets as harnessLeaks, startHarness } from '../e2e/harness.js';
import { startGwops } from '../e2e/spawn.js';
import { drillSeed, recordDrill } from './record.js';
import { leakedSecrets } from './support.js';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const texts: string[] = [];
  for (const e of entries) if (e.isFile()) texts.push(await readFile(join(e.parentPath, e.name), 'utf8'));
  return texts;
}

describe('drill: secrets', () => {
  it('no API key, cookie or private key in any output, file or log, nor the key in process arguments', async () => {
    const seed = drillSeed(0);
    const h = await startHarness();
    const rows: (string | number)[][] = [];
    try {
      const config = ['--config', DEMO_PROJECT, ...h.connection];
      const planFile = join(h.dir, 'plan.json');
      const exportDir = join(h.dir, 'export');
      const commands: readonly (readonly [string, readonly string[], number])[] = [
        ['validate (text)', ['validate', '--config', DEMO_PROJECT], 0],
        ['validate (json)', ['validate', '--config', DEMO_PROJECT, '--format', 'json'], 0],
        ['plan (text, --out)', ['plan', ...config, '--out', planFile], 0],
        ['plan (markdown)', ['plan', ...config, '--format', 'markdown'], 0],
        ['plan (json)', ['plan', ...config, '--format', 'json'], 0],
        ['apply --plan (json)', ['apply', '--yes', '--plan', planFile, ...config, '--format', 'json'], 0],
        ['drift (text)', ['drift', ...config], 0],
        ['drift (markdown)', ['drift', ...config, '--format', 'markdown'], 0],
        ['drift (json)', ['drift', ...config, '--format', 'json'], 0],
        ['history', ['history', ...config], 0],
        ['export (json)', ['export', ...h.connection, '--out', exportDir, '--format', 'json'], 0],
        ['apply of a changed plan file (refused)', ['apply', '--yes', '--plan', planFile, ...config], 1],
      ];
      const secrets = (): string[] => [...h.secrets];
      for (const [name, args, expected] of commands) {
        const before = h.outputs.length;
        const run = await h.cli(args);
        expect(run.code, `${name}: ${run.stderr}`).toBe(expected);
        rows.push([name, 1, leakedSecrets(h.outputs.slice(before), secrets()).length]);
      }
      rows.push(['saved plan file', 1, leakedSecrets([await readFile(planFile, 'utf8')], secrets()).length]);
      rows.push(['exported manifests', 1, leakedSecrets(await filesUnder(exportDir), secrets()).length]);
      rows.push(["the emulator's request log", 1, leakedSecrets([JSON.stringify(h.emulator.requestLog)], secrets()).length]);
      // A real process with the key in its environment: the key is not among its arguments, nor in its output.
      const key = h.emulator.apiKey;
      const proc = startGwops(['drift', '--config', DEMO_PROJECT, '--url', h.emulator.url, '--ca-file', join(h.dir, 'ca.pem')], { ...h.env, GWOPS_API_KEY: key });
      const code = await proc.exited;
      expect(code, proc.stderr).toBe(0);
      rows.push(['process arguments (GWOPS_API_KEY in the environment)', 1, proc.child.spawnargs.some((a) => a.includes(key)) ? 1 : 0]);
      rows.push(['that process’s stdout and stderr', 1, leakedSecrets([proc.stdout, proc.stderr], secrets()).length]);
      expect(harnessLeaks(h)).toEqual([]);
    } finally {
      await h.close();
    }
    const violations = recordDrill({
      id: 'secrets',
      title: 'Secrets',
      description:
        'The example project (two certificates whose private keys come from environment variables) through every ' +
        'command and format against an HTTPS emulator. Searched for: both API keys, every private key (and any PEM ' +
        'private key block). A process run with GWOPS_API_KEY must not carry the key in its arguments. Every other drill ' +
        'also counts secrets in its own outputs.',
      seed,
      columns: ['output', 'runs', 'secrets found'],
      rows,
      mustBeZero: ['secrets found'],
    });
    expect(violations).toEqual([]);
  }, 600_000);
});
