/**
 * What the drills share: a seeded random source, a plain-HTTP emulator behind the
 * intercepting proxy (test/support/proxy.ts) with the real CLI run in-process, the
 * manifests of a plan of more than 30 calls, and the checks every drill applies to every
 * run (secrets, stack traces, sessions left open, the active configuration).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { InterceptingProxy, Interception, ProxiedCall } from '../support/proxy.js';
import { startInterceptingProxy } from '../support/proxy.js';
import { REPO } from '../e2e/harness.js';

/** The emulator's seeded PRNG (mulberry32), so drills and fault rules draw alike. */
export { prng } from '../../src/emulator/faults.js';

/** `count` distinct values of `from`, drawn with `random` (all of them when count ≥ length), in their original order. */
export function sample<T>(from: readonly T[], count: number, random: () => number): T[] {
  if (count >= from.length) return [...from];
  const indexes = new Set<number>();
  while (indexes.size < count) indexes.add(Math.floor(random() * from.length));
  return [...indexes].sort((a, b) => a - b).map((i) => from[i] as T);
}

/** One CLI run. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A private key as a manifest secret (fromEnv), so that the secret scans have a key to look for. */
export function throwawayKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** A terminal for consent questions. */
export interface Terminal {
  readonly stdin: NodeJS.ReadableStream;
  readonly onStderr: (text: string) => void;
}

/** An emulator (plain HTTP) behind an intercepting proxy, a key file, and the CLI in-process. */
export interface DrillGateway {
  readonly emulator: RunningEmulator;
  readonly proxy: InterceptingProxy;
  readonly dir: string;
  /** `--url <proxy> --api-key-file <file>` */
  readonly viaProxy: readonly string[];
  /** `--url <emulator> --api-key-file <file>` (around the faults) */
  readonly direct: readonly string[];
  /** Values that must appear in no output. */
  readonly secrets: string[];
  /** Every output of every run. */
  readonly outputs: string[];
  /** What the proxy does with each call (forward everything by default). */
  intercept: (call: ProxiedCall, index: number) => Interception | undefined;
  /** Calls the proxy has seen since the last {@link DrillGateway.resetCount}. */
  count: number;
  resetCount(): void;
  /** Runs gwops in-process; `terminal` makes it ask on `terminal.stdin`, telling `onStderr` what it prints. */
  cli(args: readonly string[], env?: Record<string, string>, terminal?: Terminal): Promise<Run>;
  close(): Promise<void>;
}

/** Starts a {@link DrillGateway}. */
export async function startDrillGateway(options: { sessionIdleTimeoutMs?: number } = {}): Promise<DrillGateway> {
  const emulator = await startEmulator({ port: 0, tls: false, ...options });
  const holder: { gateway?: DrillGateway } = {};
  const proxy = await startInterceptingProxy(emulator.url, (call) => {
    const gateway = holder.gateway;
    if (!gateway) return undefined;
    gateway.count += 1;
    return gateway.intercept(call, gateway.count);
  });
  const dir = await mkdtemp(join(tmpdir(), 'gwops-drill-'));
  const keyFile = join(dir, 'api-key');
  await writeFile(keyFile, emulator.apiKey, { mode: 0o600 });
  const outputs: string[] = [];
  const created: DrillGateway = {
    emulator,
    proxy,
    dir,
    viaProxy: ['--url', proxy.url, '--api-key-file', keyFile],
    direct: ['--url', emulator.url, '--api-key-file', keyFile],
    secrets: [emulator.apiKey, emulator.readOnlyApiKey],
    outputs,
    intercept: () => undefined,
    count: 0,
    resetCount() {
      this.count = 0;
    },
    async cli(args, env = {}, terminal) {
      let stdout = '';
      let stderr = '';
      const code = await main(['node', 'gwops', ...args], {
        stdout: { write: (s: string) => (stdout += s) },
        stderr: {
          write: (s: string) => {
            stderr += s;
            terminal?.onStderr(s);
            return true;
          },
        },
        env: { PATH: process.env.PATH, CI: 'true', ...env },
        cwd: REPO,
        isTTY: false,
        canPrompt: terminal !== undefined,
        stdin: terminal?.stdin ?? Readable.from([]),
      });
      outputs.push(stdout, stderr);
      return { code, stdout, stderr };
    },
    async close() {
      await proxy.close();
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
  holder.gateway = created;
  return created;
}

/** The secrets (by position in `secrets`, never their values) found in `texts`, plus PEM private keys. */
export function leakedSecrets(texts: readonly string[], secrets: readonly string[]): string[] {
  const all = texts.join('\n');
  const found = secrets.flatMap((s, i) => (s.length > 0 && all.includes(s) ? [`secret #${i}`] : []));
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(all)) found.push('a PEM private key');
  return found;
}

/** True when the output shows a stack trace or an unexpected-error line (a crash, not a typed failure). */
export function showsCrash(run: Run): boolean {
  return /\n\s+at .+(\(|:\d+:\d+)/.test(run.stderr) || /unexpected error|TypeError|RangeError|ReferenceError/.test(run.stderr);
}

/** The active configuration's objects, as comparable text. */
export function activeText(emulator: RunningEmulator): string {
  return JSON.stringify(emulator.activeSnapshot());
}

/** Rejects with `label` after `ms` unless `work` settles first (a hang bound, never a speed check). */
export async function within<T>(ms: number, label: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new HangError(`${label}: no end after ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A run that did not end within its bound. */
export class HangError extends Error {}

/**
 * Writes the drills' manifests into `dir`: `base/` (what the gateway holds before) and
 * `target/` (what the drilled apply makes of it: updates, creates and links; more than 30
 * calls). `tag` keeps the names of parallel appliers apart.
 * @returns the two folders
 */
export async function writeDrillManifests(dir: string, tag = 'drill', groups = 6): Promise<{ base: string; target: string }> {
  const group = (i: number, port: number): string => `apiVersion: gwops/v1
kind: back-end-group
name: ${tag}-backend-${i}
attributes:
  backendHosts: [{ protocol: HTTP, hostName: app${i}.internal, port: ${port} }]
`;
  const mapping = (i: number, j: number, priority: number): string => `apiVersion: gwops/v1
kind: mapping
name: ${tag}-map-${i}-${j}
attributes:
  entryPath: { value: /${tag}/${i}/${j}/, priority: ${priority} }
  backendPath: /
relationships:
  back-end-groups: [${tag}-backend-${i}]
  virtual-hosts: [${tag}-host]
`;
  const host = `apiVersion: gwops/v1
kind: virtual-host
name: ${tag}-host
attributes:
  hostName: ${tag}.example.com
  networkInterface: { https: { enabled: false, http2Allowed: false }, http: { enabled: true, port: 80 } }
`;
  const base = join(dir, `${tag}-base`);
  const target = join(dir, `${tag}-target`);
  await mkdir(base, { recursive: true });
  await mkdir(target, { recursive: true });
  const baseDocs: string[] = [host];
  const targetDocs: string[] = [host];
  for (let i = 1; i <= groups; i++) {
    if (i <= groups / 2) {
      baseDocs.push(group(i, 8080), mapping(i, 1, 10 + i));
      targetDocs.push(group(i, 9090), mapping(i, 1, 20 + i));
    }
    if (i > groups / 2) targetDocs.push(group(i, 8080), mapping(i, 1, 10 + i));
    targetDocs.push(mapping(i, 2, 40 + i), mapping(i, 3, 60 + i));
  }
  await writeFile(join(base, 'all.yaml'), baseDocs.join('---\n'));
  await writeFile(join(target, 'all.yaml'), targetDocs.join('---\n'));
  return { base, target };
}
