/**
 * Progress of long commands, through the real process: on stderr only, piped as one line
 * per phase, on a pseudo-terminal (`script`) one line redrawn in place, off with --quiet.
 * The first line is measured: it must be on stderr while the gateway still holds the
 * session's create call, that is before gwops has anything back from the gateway. The
 * time to it is reported, and bounded only generously (the machine is shared).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useProxiedEmulator } from '../support/proxy.js';
import { REPO } from './harness.js';
import { startGwops } from './spawn.js';
import { startOnTerminal } from '../support/pseudo-terminal.js';

const proxied = useProxiedEmulator();
let manifests = '';
const GROUPS = 60;

beforeAll(async () => {
  manifests = join(proxied.dir, 'progress.yaml');
  const documents = Array.from(
    { length: GROUPS },
    (_, i) => `apiVersion: gwops/v1\nkind: back-end-group\nname: progress-${i}\nattributes:\n  backendHosts: [{ hostName: h${i}.internal, port: 8080 }]\n`,
  );
  await writeFile(manifests, documents.join('---\n'));
});

/** Holds the gateway's answer to the session's create call and resolves once it is held. */
function holdSessionCreate(ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    proxied.intercept((call) => (call.method === 'POST' && call.path === '/session/create' ? { holdMs: ms, onHeld: resolve } : undefined));
  });
}

describe('progress on stderr', () => {
  it('piped: the first line before the gateway answered anything, one line per phase, nothing on stdout', async () => {
    const held = holdSessionCreate(2_000);
    const started = performance.now();
    let firstLineMs: number | undefined;
    const gwops = startGwops(['plan', manifests, ...proxied.connection]);
    gwops.child.stderr.once('data', () => (firstLineMs = performance.now() - started));
    await held;
    // The gateway has not answered yet: what is on stderr came without it.
    await gwops.waitFor('plan: connecting');
    expect(gwops.stderr).toMatch(/^plan: reading manifests \(\d+\.\d s\)\n/);
    expect(await gwops.exited).toBe(0);
    console.log(`time to the first progress line (piped): ${Math.round(firstLineMs ?? NaN)} ms`);
    expect(firstLineMs).toBeLessThan(15_000);
    const phases = gwops.stderr.trim().split('\n').map((l) => l.replace(/ \(\d+(\.\d)? s\)$|^plan: /g, ''));
    expect(phases).toEqual(['reading manifests', 'connecting', 'reading live state 0/1', 'planning', `executing 0/${GROUPS}`, 'reading validator messages']);
    expect(gwops.stdout).toMatch(/Plan: 60 to create/);
    expect(gwops.stdout).not.toMatch(/^plan: /m);
  });

  it('--quiet: nothing on stderr', async () => {
    const gwops = startGwops(['plan', manifests, ...proxied.connection, '--quiet']);
    expect(await gwops.exited).toBe(0);
    expect(gwops.stderr).toBe('');
    expect(gwops.stdout).toMatch(/Plan: 60 to create/);
  });

  it('on a terminal: one line redrawn in place, erased at the end; stdout holds only the plan', async () => {
    const held = holdSessionCreate(2_000);
    const out = join(proxied.dir, 'tty-stdout.txt');
    const command = [process.execPath, join(REPO, 'bin', 'gwops.js'), 'apply', '--yes', manifests, ...proxied.connection].map((a) => `'${a}'`).join(' ');
    const started = performance.now();
    let firstOutputMs: number | undefined;
    // `script` gives the command a pseudo-terminal for stderr; stdout goes to a file.
    const child = startOnTerminal(`${command} > '${out}'; echo "exit=$?"`, proxied.dir);
    let terminal = '';
    child.stdout?.on('data', (d: Buffer) => {
      firstOutputMs ??= performance.now() - started;
      terminal += d.toString();
    });
    await held;
    await expect.poll(() => terminal, { timeout: 10_000 }).toContain('apply: connecting');
    await new Promise((resolve) => child.on('exit', resolve));
    console.log(`time to the first progress output (terminal): ${Math.round(firstOutputMs ?? NaN)} ms`);
    expect(firstOutputMs).toBeLessThan(15_000);
    expect(terminal).toContain('exit=0');
    // Redrawn in place: each state starts with a carriage return and an erase of the line, never a newline of its own.
    const ERASE = '\r\x1b[K';
    const frames = terminal.split(ERASE).slice(1, -1);
    expect(frames[0]).toMatch(/^apply: reading manifests \(\d+\.\d s\)$/);
    expect(frames.some((f) => /^apply: executing \d+\/60 \(\d+\.\d s\)$/.test(f))).toBe(true);
    expect(frames.some((f) => f.startsWith('apply: activating'))).toBe(true);
    expect(frames.filter((f) => f.startsWith('apply: ')).every((f) => !f.includes('\n'))).toBe(true);
    expect(terminal).not.toMatch(/\[\d+\/60\]/);
    expect(terminal.replace(/exit=0\s*$/, '').trimEnd().endsWith(ERASE)).toBe(true);
    const stdout = await readFile(out, 'utf8');
    expect(stdout).toContain('Apply complete');
    expect(stdout).not.toContain('apply: ');
    expect(stdout).not.toContain('\x1b[K');
  });
});
