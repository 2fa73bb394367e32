/**
 * The outcome of an activation is what the gateway did: an answer that is not the
 * documented success is an error whose outcome is unknown; a success is confirmed in the
 * configurations list; a signal while the activation request is in flight waits for its
 * answer and reports it. A proxy in front of a plain-HTTP emulator replaces or holds the
 * activation's answer; the emulator's own state is the truth.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { Interception, InterceptingProxy, ProxiedCall } from '../support/proxy.js';
import { useProxiedEmulator } from '../support/proxy.js';
import { startGwops } from './spawn.js';

const ACTIVATE = '/configuration/configurations/activate';

let emulator: RunningEmulator;
let proxy: InterceptingProxy;
let dir: string;
let keyFile: string;
let intercept: (call: ProxiedCall) => Interception | undefined = () => undefined;
let counter = 0;

/** A manifest file declaring one new back-end group, so every apply has a change to activate. */
async function freshChange(): Promise<string> {
  counter += 1;
  const file = join(dir, `change-${counter}.yaml`);
  await writeFile(
    file,
    `apiVersion: gwops/v1\nkind: back-end-group\nname: outcome-${counter}\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app${counter}.internal, port: 8080 }]\n`,
  );
  return file;
}

function connection(): string[] {
  return ['--url', proxy.url, '--api-key-file', keyFile];
}

async function cli(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: { PATH: process.env.PATH },
    cwd: dir,
    isTTY: false,
    stdin: Readable.from([]),
  });
  return { code, stdout, stderr };
}

/** The id and comment of the emulator's active configuration. */
const active = (): { id: string; comment?: string } => emulator.activeSnapshot() as { id: string; comment?: string };
const activeComment = (): string | undefined => active().comment;

const proxied = useProxiedEmulator();
beforeAll(() => {
  ({ emulator, proxy, dir, keyFile } = proxied);
});
beforeEach(() => {
  intercept = () => undefined;
  proxied.intercept((call) => intercept(call));
});

describe('an activation answer that is not the documented success', () => {
  const cases: [string, { status: number; body?: string }][] = [
    ['200 with a JSON:API errors body', { status: 200, body: JSON.stringify({ errors: [{ code: 'ACTIVATION_FAILED', status: '200', title: 'failed' }] }) }],
    ['202 with an empty body', { status: 202, body: '' }],
  ];
  for (const [label, reply] of cases) {
    it(`${label}: exit 1, the outcome is unknown, no "Apply complete"`, async () => {
      intercept = (call) => (call.method === 'POST' && call.path === ACTIVATE ? { reply } : undefined);
      const before = active().id;
      const r = await cli(['apply', await freshChange(), ...connection(), '--yes', '--comment', label]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('may or may not have activated');
      expect(r.stderr).toContain('gwops drift');
      expect(r.stdout + r.stderr).not.toContain('Apply complete');
      expect(active().id).toBe(before);
      expect(emulator.openSessionCount()).toBe(0);
    });
  }

  it('a success answer whose activation the configurations list does not show: exit 1, naming what is active', async () => {
    intercept = (call) => (call.method === 'POST' && call.path === ACTIVATE ? { reply: { status: 200, body: '{}' } } : undefined);
    const r = await cli(['apply', await freshChange(), ...connection(), '--yes', '--comment', 'never activated']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("does not show this run's configuration");
    expect(r.stdout + r.stderr).not.toContain('Apply complete');
    expect(activeComment()).not.toBe('never activated');
  });

  it('the documented success is confirmed through the configurations list and reported with its id', async () => {
    const r = await cli(['apply', await freshChange(), ...connection(), '--yes', '--comment', 'confirmed']);
    expect(r.code).toBe(0);
    // The comment given, with the project trailer (commit-comment.ts withProjectTrailer).
    expect(activeComment()).toMatch(/^confirmed gwops-project=[0-9a-f]{12}$/);
    expect(r.stdout).toContain(`Apply complete: configuration ${active().id} activated`);
    expect(proxy.calls.filter((c) => c.path === '/configuration/configurations' && c.method === 'GET').length).toBeGreaterThanOrEqual(2);
  });
});

describe('a signal while the activation request is in flight', () => {
  it('waits for the answer and reports that the gateway activated (exit 130)', async () => {
    const file = await freshChange();
    const gwops = startGwops(['apply', file, ...connection(), '--yes', '--comment', 'activated under SIGINT']);
    intercept = (call) =>
      call.method === 'POST' && call.path === ACTIVATE ? { holdMs: 1_500, onHeld: () => gwops.child.kill('SIGINT') } : undefined;
    const code = await gwops.exited;
    expect(gwops.stderr).toContain('waiting at most');
    expect(gwops.stderr).toContain('the gateway activated the configuration');
    expect(gwops.stderr).not.toContain('discarded');
    expect(code).toBe(130);
    expect(activeComment()).toMatch(/^activated under SIGINT gwops-project=[0-9a-f]{12}$/);
    expect(emulator.openSessionCount()).toBe(0);
  });

  it('a second signal stops waiting: the outcome is unknown, the session is terminated (exit 143)', async () => {
    const file = await freshChange();
    const gwops = startGwops(['apply', file, ...connection(), '--yes', '--comment', 'unknown under SIGTERM']);
    intercept = (call) =>
      call.method === 'POST' && call.path === ACTIVATE
        ? {
            holdMs: 20_000,
            onHeld: () => {
              gwops.child.kill('SIGTERM');
              setTimeout(() => gwops.child.kill('SIGTERM'), 300);
            },
          }
        : undefined;
    const code = await gwops.exited;
    expect(code).toBe(143);
    expect(gwops.stderr).toContain('is unknown');
    expect(gwops.stderr).toContain('gwops drift');
    expect(gwops.stderr).not.toContain('discarded');
    expect(emulator.openSessionCount()).toBe(0);
  });
});
