/**
 * `gwops targets` (src/operations/targets.ts): the targets of a project file for a CI
 * matrix (examples/ci/apply-to-targets.yml), run through `main` as a user would.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = join(REPO, 'examples');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function gwops(args: readonly string[], cwd = REPO): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    // A key in the environment must never show up in the listing.
    env: { GWOPS_API_KEY: 'not-a-real-key-4f2a9c' },
    cwd,
    isTTY: false,
    stdin: Readable.from([]),
  });
  return { code, stdout, stderr };
}

const EXPECTED = [
  { name: 'production', url: 'https://gateway.example.com/airlock/rest', variant: 'latest' },
  { name: 'staging', url: 'https://gateway-staging.example.com/airlock/rest', variant: 'latest' },
];

describe('gwops targets', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gwops-targets-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the targets of examples/gwops.yaml as JSON, in file order, with nothing but name, URL and variant', async () => {
    const run = await gwops(['targets', '--config', 'examples/gwops.yaml', '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ formatVersion: '1.0', targets: EXPECTED });
    expect(run.stdout).not.toMatch(/apiKey|GWOPS_API_KEY|not-a-real-key|overlays/);
  });

  it('prints a table by default, reading gwops.yaml of the working directory', async () => {
    const run = await gwops(['targets'], EXAMPLES);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')).toEqual([
      'NAME        URL                                               VARIANT',
      'production  https://gateway.example.com/airlock/rest          latest',
      'staging     https://gateway-staging.example.com/airlock/rest  latest',
      '',
    ]);
  });

  it("shows a target's own variant and the demo's emulator target", async () => {
    const run = await gwops(['targets', '--config', 'examples/demo/gwops.yaml', '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ formatVersion: '1.0', targets: [{ name: 'demo', url: 'https://127.0.0.1:8443/airlock/rest', variant: 'latest' }] });

    const file = join(dir, 'variants.yaml');
    await writeFile(file, 'manifests: [m]\ntargets:\n  old:\n    url: https://old.example.com/airlock/rest\n    variant: earliest\n    apiKeyFile: secret-key\n');
    const own = await gwops(['targets', '--config', file, '--format', 'json']);
    expect(own.code).toBe(0);
    expect(JSON.parse(own.stdout)).toEqual({ formatVersion: '1.0', targets: [{ name: 'old', url: 'https://old.example.com/airlock/rest', variant: 'earliest' }] });
    expect(own.stdout).not.toContain('secret-key');
  });

  it('never prints credentials a URL might carry', async () => {
    const file = join(dir, 'credentials.yaml');
    await writeFile(file, 'targets:\n  leaky:\n    url: https://admin:hunter2@gw.example.com/airlock/rest\n');
    for (const format of ['text', 'json']) {
      const run = await gwops(['targets', '--config', file, '--format', format]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('https://gw.example.com/airlock/rest');
      expect(run.stdout).not.toMatch(/admin|hunter2/);
    }
  });

  it('prints an empty list for a project without targets, and says so on stderr', async () => {
    const file = join(dir, 'empty.yaml');
    await writeFile(file, 'manifests: [m]\n');
    const json = await gwops(['targets', '--config', file, '--format', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ formatVersion: '1.0', targets: [] });
    expect(json.stderr).toContain('no targets');
    const text = await gwops(['targets', '--config', file]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe('');
  });

  it('fails with exit 1 and one line when there is no project file, or it is invalid', async () => {
    const none = await gwops(['targets'], dir);
    expect(none.code).toBe(1);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^Error: no project file: gwops\.yaml does not exist in .* \(name one with --config\)\n$/);

    const missing = await gwops(['targets', '--config', 'nope.yaml'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read project file 'nope.yaml'");

    const file = join(dir, 'invalid.yaml');
    await writeFile(file, 'targets:\n  bad:\n    url: ftp://gw.example.com\n');
    const invalid = await gwops(['targets', '--config', file]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('invalid project file');
    expect(invalid.stdout).toBe('');
  });

  it('rejects an unknown format', async () => {
    const run = await gwops(['targets', '--config', 'examples/gwops.yaml', '--format', 'yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("argument 'yaml' is invalid");
  });
});
