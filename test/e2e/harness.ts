/**
 * End-to-end harness: the real CLI (`main`) against a real emulator over HTTPS, with
 * captured output. Every output of every command run through it is kept for the secret
 * scan (test/e2e/secrets.test.ts runs its own commands; each file scans what it ran).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { main } from '../../src/cli/main.js';
import { EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY } from '../../src/demo/example-keys.js';
import type { GatewaySession } from '../../src/gateway/index.js';
import { withSession } from '../../src/gateway/index.js';
import { undeclaredExitCodes } from '../support/exit-codes.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const EXAMPLES = join(REPO, 'examples');
export const DEMO_PROJECT = join(EXAMPLES, 'demo', 'gwops.yaml');

/** One CLI run. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running emulator plus what the CLI needs to reach it. */
export interface Harness {
  readonly emulator: RunningEmulator;
  readonly dir: string;
  /** `--url … --api-key-file … --ca-file …` */
  readonly connection: readonly string[];
  /** Secret values that must never appear in any output. */
  readonly secrets: readonly string[];
  /** Every output produced through {@link Harness.cli}. */
  readonly outputs: string[];
  /** The arguments and exit code of every run through {@link Harness.cli}, checked against the codes each command declares. */
  readonly runs: { readonly args: readonly string[]; readonly code: number }[];
  env: Record<string, string | undefined>;
  cli(args: readonly string[], options?: { cwd?: string; env?: Record<string, string | undefined> }): Promise<CliResult>;
  /** Runs raw API calls in a session of their own (changes behind gwops's back); activates when `activate` is given. */
  raw<T>(fn: (session: GatewaySession) => Promise<T>, activate?: string): Promise<T>;
  close(): Promise<void>;
}

/** Creates an object through the raw API (in a {@link Harness.raw} session) and returns its id. */
export async function createdId(session: GatewaySession, collection: string, type: string, attributes: Record<string, unknown>): Promise<string> {
  return (await session.create(collection, { type, attributes })).id;
}

/**
 * `stderr` without the notice that a call has waited for the gateway for more than 5 s
 * (src/gateway/http.ts `WAITING_NOTICE_MS`): whether it appears depends on how busy the
 * machine running the emulator is, not on gwops. test/gateway/timeout.test.ts tests it.
 */
export function withoutWaitingNotice(stderr: string): string {
  return stderr.replace(/^Warning: waiting for the gateway: .*\n/gm, '');
}

/** Starts an emulator and prepares keys, CA file and environment. */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ port: 0, variant: 'latest', ...options });
  const dir = await mkdtemp(join(tmpdir(), 'gwops-e2e-'));
  const keyFile = join(dir, 'api-key');
  const caFile = join(dir, 'ca.pem');
  await writeFile(keyFile, emulator.apiKey, { mode: 0o600 });
  await writeFile(caFile, emulator.caCertificate ?? '');
  // The keys of the examples' stand-in certificates: a key must belong to its certificate.
  const shopKey = EXAMPLE_SHOP_TLS_KEY;
  const wildcardKey = EXAMPLE_WILDCARD_TLS_KEY;
  const outputs: string[] = [];
  const harness: Harness = {
    emulator,
    dir,
    connection: ['--url', emulator.url, '--api-key-file', keyFile, '--ca-file', caFile],
    secrets: [emulator.apiKey, emulator.readOnlyApiKey, shopKey, wildcardKey],
    outputs,
    runs: [],
    env: { PATH: process.env.PATH, GWOPS_EXAMPLE_SHOP_TLS_KEY: shopKey, GWOPS_EXAMPLE_WILDCARD_TLS_KEY: wildcardKey, CI: 'true' },
    async cli(args, opts = {}) {
      let stdout = '';
      let stderr = '';
      const code = await main(['node', 'gwops', ...args], {
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
        env: { ...harness.env, ...opts.env },
        cwd: opts.cwd ?? REPO,
        isTTY: false,
        stdin: Readable.from([]),
      });
      outputs.push(stdout, stderr);
      harness.runs.push({ args, code });
      return { code, stdout, stderr: withoutWaitingNotice(stderr) };
    },
    async raw(fn, activate) {
      return withSession({ url: emulator.url, apiKey: emulator.apiKey, ca: emulator.caCertificate }, async (session) => {
        await session.loadActive();
        const result = await fn(session);
        if (activate !== undefined) await session.activate(activate);
        return result;
      });
    },
    async close() {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Writes manifest files into a fresh folder of the harness and returns its path. */
export async function writeManifests(harness: Harness, name: string, files: Record<string, string>): Promise<string> {
  const folder = join(harness.dir, name);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(folder, { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
  return folder;
}

/** Asserts-by-return: the secrets that appear in any output (should be empty). */
/**
 * A pattern for how a diagnostic names `file`: as given (absolute) or relative to the
 * repository, the working directory of {@link Harness.cli} (a checkout under the temporary
 * directory names a temporary file `../…`).
 */
export function shownFile(file: string): RegExp {
  const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(${escape(file)}|${escape(relative(REPO, file))})`);
}

export function leakedSecrets(harness: Harness): string[] {
  const all = harness.outputs.join('\n');
  const leaks = harness.secrets.filter((s) => s.length > 0 && all.includes(s));
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(all)) leaks.push('a PEM private key');
  return leaks;
}

/** A suite's harness: started before its tests; `config` = `--config <demo project>` plus the connection. */
export interface SuiteHarness {
  readonly h: Harness;
  readonly config: readonly string[];
}

/**
 * Registers the suite hooks every end-to-end file needs: start a harness before the tests;
 * after them, assert that no secret appeared in any output and no session stayed open,
 * then stop it.
 */
export function useHarness(options: EmulatorOptions = {}): SuiteHarness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
  });
  afterAll(async () => {
    if (!harness) return;
    expect(leakedSecrets(harness)).toEqual([]);
    expect(harness.emulator.openSessionCount()).toBe(0);
    // Every exit code of every run is one its command's --help declares (src/cli/help.ts).
    expect(await undeclaredExitCodes(harness.runs)).toEqual([]);
    await harness.close();
  });
  const get = (): Harness => {
    if (!harness) throw new Error('the harness starts in beforeAll');
    return harness;
  };
  return {
    get h() {
      return get();
    },
    get config() {
      return ['--config', DEMO_PROJECT, ...get().connection];
    },
  };
}

/**
 * For manifests that read certificates' private keys `{ fromEnv }`: each such variable set
 * to the key of `keys` that belongs to its certificate (the loader checks that it does).
 * @param texts manifest files' texts (several documents each allowed)
 */
export function certificateKeyEnv(texts: readonly string[], keys: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const text of texts) {
    for (const parsed of parseAllDocuments(text)) {
      const doc = parsed.toJS() as { kind?: unknown; attributes?: { certificate?: unknown; privateKey?: { fromEnv?: unknown } } } | null;
      const variable = doc?.attributes?.privateKey?.fromEnv;
      const pem = doc?.attributes?.certificate;
      if (doc?.kind !== 'ssl-certificate' || typeof variable !== 'string' || typeof pem !== 'string') continue;
      const x509 = new X509Certificate(pem);
      const key = keys.find((k) => x509.checkPrivateKey(createPrivateKey(k)));
      if (key !== undefined) env[variable] = key;
    }
  }
  return env;
}

/**
 * Runs the CLI in this process as `harness.cli` does, with its clock at `now` (for
 * `drift.ignore` expiry) and its working directory at `cwd`; the outputs are kept for
 * {@link leakedSecrets}.
 */
export async function cliAtTime(harness: Harness, now: Date, args: readonly string[], cwd: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: harness.env,
    cwd,
    isTTY: false,
    stdin: Readable.from([]),
    now: () => now,
  });
  harness.outputs.push(stdout, stderr);
  harness.runs.push({ args, code });
  return { code, stdout, stderr };
}
