/**
 * The real `gwops` process: consent without a terminal, signals at any moment (SIGHUP,
 * a second SIGINT, a signal before any session), a closed output pipe, and one-line
 * errors where a stack trace used to appear. A proxy in front of a plain-HTTP emulator
 * holds a reply so that a signal lands while a session is open.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { REPO } from './harness.js';
import type { Interception, InterceptingProxy, ProxiedCall } from '../support/proxy.js';
import { useProxiedEmulator } from '../support/proxy.js';
import { untilStalled } from '../support/bounded-process.js';
import { startGwops } from './spawn.js';
import { startOnTerminal } from '../support/pseudo-terminal.js';

const run = promisify(execFile);

let emulator: RunningEmulator;
let proxy: InterceptingProxy;
let dir: string;
let keyFile: string;
let manifest: string;
let intercept: (call: ProxiedCall) => Interception | undefined = () => undefined;

const connection = (): string[] => ['--url', proxy.url, '--api-key-file', keyFile];
const activeId = (): string => (emulator.activeSnapshot() as { id: string }).id;
/** Calls that change the working copy or activate: none may reach the gateway without consent. */
const writeCalls = (): string[] =>
  emulator.requestLog
    .filter((e) => e.method !== 'GET' && !['/session/create', '/session/terminate', '/configuration/configurations/load-active'].includes(e.path))
    .map((e) => `${e.method} ${e.path}`);

const proxied = useProxiedEmulator();
beforeAll(async () => {
  ({ emulator, proxy, dir, keyFile } = proxied);
  manifest = join(dir, 'group.yaml');
  await writeFile(
    manifest,
    'apiVersion: gwops/v1\nkind: back-end-group\nname: process-group\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n',
  );
});
beforeEach(() => {
  intercept = () => undefined;
  proxied.intercept((call) => intercept(call));
});

describe('consent', () => {
  for (const ci of [undefined, 'true']) {
    it(`apply without --yes and without a terminal${ci ? ' (CI=true)' : ''}: the plan, one line on --yes, exit 1, nothing written`, async () => {
      const before = activeId();
      // --quiet: without it, piped progress lines come before (test/e2e/progress.test.ts).
      const gwops = startGwops(['apply', '--quiet', manifest, ...connection()], { CI: ci });
      gwops.child.stdin.end();
      const code = await gwops.exited;
      expect(code).toBe(1);
      expect(gwops.stdout).toContain('process-group');
      expect(gwops.stderr.trim().split('\n')).toHaveLength(1);
      expect(gwops.stderr).toContain('--yes');
      expect(activeId()).toBe(before);
      expect(writeCalls()).toEqual([]);
      expect(emulator.openSessionCount()).toBe(0);
    });
  }

  it('on a terminal it asks on stderr; an answer other than "yes" cancels with exit 1', async () => {
    const before = activeId();
    const command = [process.execPath, join(REPO, 'bin', 'gwops.js'), 'apply', manifest, ...connection()].map((a) => `'${a}'`).join(' ');
    // `script` gives the command a pseudo-terminal; "no" is typed on it after a moment.
    const child = startOnTerminal(`${command}; echo "exit=$?"`, dir);
    let output = '';
    let answered = false;
    // The answer is typed once; `script` may have closed its input by the time later output arrives.
    child.stdin?.on('error', () => undefined);
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      if (!answered && output.includes('Only "yes" is accepted')) {
        answered = true;
        child.stdin?.write('no\n');
      }
    });
    await new Promise((resolve) => child.on('exit', resolve));
    expect(output).toContain('Do you want to apply these changes?');
    expect(output).toContain('Apply cancelled.');
    expect(output).toContain('exit=1');
    expect(activeId()).toBe(before);
    expect(writeCalls()).toEqual([]);
  });
});

describe('signals', () => {
  /** Starts a plan whose first list call is held, and resolves once a session is open and the call is held. */
  async function planWithHeldList(): Promise<ReturnType<typeof startGwops>> {
    let held: () => void = () => undefined;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    let once = false;
    intercept = (call) => {
      if (call.method !== 'GET' || !call.path.startsWith('/configuration/back-end-groups') || once) return undefined;
      once = true;
      return { holdMs: 3_000, onHeld: held };
    };
    const gwops = startGwops(['plan', manifest, ...connection()]);
    await isHeld;
    expect(emulator.openSessionCount()).toBe(1);
    return gwops;
  }

  it('SIGHUP (a closed terminal) terminates the session and exits 129', async () => {
    const gwops = await planWithHeldList();
    gwops.child.kill('SIGHUP');
    expect(await gwops.exited).toBe(129);
    expect(gwops.stderr).toContain('interrupted by SIGHUP');
    expect(emulator.openSessionCount()).toBe(0);
  });

  it('a second SIGINT a few milliseconds after the first waits for the termination under way', async () => {
    const gwops = await planWithHeldList();
    gwops.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 5));
    gwops.child.kill('SIGINT');
    expect(await gwops.exited).toBe(130);
    expect(gwops.stderr).toContain('interrupted by SIGINT');
    expect(emulator.openSessionCount()).toBe(0);
  });

  it('a signal before any session is opened still gets its message and exit code', async () => {
    const gwops = startGwops(['validate', '-']); // waits for standard input
    // Loaded and waiting (asleep, no progress), however long that took on a busy machine.
    expect(await untilStalled(gwops.child.pid ?? -1)).toBe('stalled');
    gwops.child.kill('SIGINT');
    expect(await gwops.exited).toBe(130);
    expect(gwops.stderr).toContain('interrupted by SIGINT');
  });

  it('plan --help lists every exit code, 129, 130 and 143 included (plan can return each)', async () => {
    const { stdout } = await run(process.execPath, [join(REPO, 'bin', 'gwops.js'), 'plan', '--help']);
    for (const code of ['0', '1', '2', '3', '129', '130', '143']) expect(stdout).toMatch(new RegExp(`^\\s+${code}\\s`, 'm'));
  });
});

describe('no stack trace in ordinary situations', () => {
  it('a closed output pipe (gwops plan --help | head -1, | true) ends quietly', async () => {
    const bin = `'${process.execPath}' '${join(REPO, 'bin', 'gwops.js')}'`;
    const err = join(dir, 'pipe-stderr');
    // `true` exits before gwops writes anything, so every write meets a closed pipe.
    const script = `${bin} plan --help 2>"$1" | head -1; ${bin} plan --help 2>>"$1" | true; echo "status=\${PIPESTATUS[0]}"; cat "$1"`;
    const { stdout } = await run('bash', ['-c', script, 'bash', err]);
    expect(stdout.split('\n')[0]).toContain('Usage: gwops plan');
    expect(stdout).toContain('status=0');
    expect(stdout).not.toMatch(/EPIPE|Unhandled|Internal error|\n\s+at /);
  });

  it('gwops emulator on a port already in use: one line, exit 1', async () => {
    const port = new URL(emulator.url).port;
    const gwops = startGwops(['emulator', '--port', port, '--no-tls', '--api-key-file', join(dir, 'emulator-key')], {}, dir);
    expect(await gwops.exited).toBe(1);
    expect(gwops.stderr.trim().split('\n')).toHaveLength(1);
    expect(gwops.stderr).toContain('already in use');
    expect(gwops.stderr).not.toMatch(/\n\s+at /);
  });

  it('plan --out into a missing directory fails before any call to the gateway', async () => {
    const gwops = startGwops(['plan', manifest, ...connection(), '--out', 'missing-dir/plan.json'], {}, dir);
    expect(await gwops.exited).toBe(1);
    expect(gwops.stderr.trim().split('\n')).toHaveLength(1);
    expect(gwops.stderr).toContain('missing-dir');
    expect(emulator.requestLog).toEqual([]);
  });
});
