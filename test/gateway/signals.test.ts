/**
 * Real signals to a real process: the client is transpiled to JavaScript once, a child
 * process opens a session with it, and the test sends SIGINT/SIGTERM and checks the exit
 * code and that the gateway has no open session left.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

const root = resolve(import.meta.dirname, '../..');
let outDir: string;
let emulator: RunningEmulator;

const DRIVER = `
import { withSession } from './gateway/index.js';
const [url, mode] = process.argv.slice(2);
try {
  await withSession({ url, apiKey: process.env.TEST_GATEWAY_KEY, graceMs: 300 }, async (session, signal) => {
    await session.loadActive();
    process.stdout.write('ready\\n');
    // Work in progress keeps the event loop alive (idle keep-alive sockets do not).
    const work = setInterval(() => undefined, 1000);
    await new Promise((_resolve, reject) => {
      if (mode === 'observe') signal.addEventListener('abort', () => (clearInterval(work), reject(signal.reason)));
    });
  });
} catch (error) {
  // As gwops's entry (src/cli/process.ts) does: an abandoned run ends the process.
  process.stderr.write(error.message + '\\n');
  if (error.abandoned) process.exit(error.exitCode);
  process.exitCode = error.exitCode ?? 1;
}
`;

beforeAll(async () => {
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  outDir = mkdtempSync(join(cache, 'gwops-signals-'));
  // Transpile (no type check: tsc does that) the client and what it imports (the API grammar, the shared modules of src/core).
  const ts_ = (dir: string): string[] => readdirSync(join(root, 'src', dir)).filter((f) => f.endsWith('.ts'));
  const files = [...ts_('gateway').map((f) => `gateway/${f}`), ...ts_('api').map((f) => `api/${f}`), ...ts_('core').map((f) => `core/${f}`)];
  mkdirSync(join(outDir, 'gateway'));
  mkdirSync(join(outDir, 'api'));
  mkdirSync(join(outDir, 'core'));
  for (const file of files) {
    const source = readFileSync(join(root, 'src', file), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    });
    writeFileSync(join(outDir, file.replace(/\.ts$/, '.js')), outputText);
  }
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(join(outDir, 'driver.js'), DRIVER);
  emulator = await startEmulator({ port: 0, tls: false });
});
afterAll(async () => {
  await emulator.close();
  rmSync(outDir, { recursive: true, force: true });
});

/** Runs the driver, sends `signal` once it has a loaded session, and resolves with its exit code and stderr. */
function runAndSignal(signal: 'SIGINT' | 'SIGTERM', mode: 'observe' | 'ignore'): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(outDir, 'driver.js'), emulator.url, mode], {
      env: { ...process.env, TEST_GATEWAY_KEY: emulator.apiKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) child.kill(signal);
    });
    child.on('error', fail);
    child.on('exit', (code) => done({ code, stderr }));
  });
}

describe('signals to a real process', () => {
  it('SIGINT: the session is terminated and the process ends with 130', async () => {
    const { code, stderr } = await runAndSignal('SIGINT', 'observe');
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted by SIGINT');
    expect(stderr).not.toContain(emulator.apiKey);
    expect(emulator.openSessionCount()).toBe(0);
    expect(emulator.requestLog.at(-1)).toMatchObject({ path: '/session/terminate', status: 200 });
  });

  it('SIGTERM with work that ignores the signal: terminated, then exit 143 after the grace period', async () => {
    const { code } = await runAndSignal('SIGTERM', 'ignore');
    expect(code).toBe(143);
    expect(emulator.openSessionCount()).toBe(0);
  });
});
