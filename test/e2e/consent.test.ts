/**
 * A gateway is changed only with consent: `--yes`, or "yes" typed where a question can be
 * asked (standard input and standard error are terminals; `canPrompt` in the CLI's IO).
 * Anything else stops before any write call.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { debugEnabled, exitCodeFor } from '../../src/cli/exit.js';
import type { CliResult } from './harness.js';
import { REPO, useHarness } from './harness.js';

describe('consent to apply', () => {
  const t = useHarness();

  /** An apply of the examples whose standard input holds `typed`, on a (simulated) terminal when `canPrompt`. */
  async function applyAnswering(typed: string[], canPrompt: boolean, env: Record<string, string | undefined> = {}): Promise<CliResult> {
    let stdout = '';
    let stderr = '';
    const code = await main(['node', 'gwops', 'apply', ...t.config, '--comment', 'consent test'], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      env: { ...t.h.env, ...env },
      cwd: REPO,
      isTTY: false,
      canPrompt,
      stdin: Readable.from(typed),
    });
    t.h.outputs.push(stdout, stderr);
    return { code, stdout, stderr };
  }

  const activeId = (): string => (t.h.emulator.activeSnapshot() as { id: string }).id;
  const writes = (): number => t.h.emulator.requestLog.filter((e) => e.method === 'PATCH' || e.method === 'DELETE' || e.path.endsWith('/activate')).length;

  for (const [label, typed] of [
    ['"no"', ['no\n']],
    ['"y" (only "yes" counts)', ['y\n']],
    ['end of input (Ctrl+D)', []],
  ] as const) {
    it(`the answer ${label} prints "Apply cancelled." and exits 1 without writing`, async () => {
      const before = activeId();
      t.h.emulator.requestLog.length = 0;
      const r = await applyAnswering([...typed], true);
      expect(r.stderr).toContain('Do you want to apply these changes?');
      expect(r.stderr).toContain('Apply cancelled.');
      expect(r.stdout).not.toContain('Do you want');
      expect(r.code).toBe(1);
      expect(activeId()).toBe(before);
      expect(writes()).toBe(0);
    });
  }

  it('no terminal and no --yes: the plan on stdout, one line on stderr saying --yes, exit 1, even with CI=true', async () => {
    for (const CI of ['true', undefined]) {
      const before = activeId();
      t.h.emulator.requestLog.length = 0;
      const r = await applyAnswering(['yes\n'], false, { CI });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('create');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('--yes');
      expect(activeId()).toBe(before);
      expect(writes()).toBe(0);
    }
  });

  it('"yes" typed on a terminal applies', async () => {
    const before = activeId();
    const r = await applyAnswering(['yes\n'], true);
    expect(r.stderr).toContain('Do you want to apply these changes?');
    expect(r.stderr).not.toMatch(/Error|cancelled/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete');
    expect(activeId()).not.toBe(before);
  });
});

describe('errors without a stack trace unless asked for', () => {
  const capture = (): { io: Parameters<typeof exitCodeFor>[1]; text: () => string } => {
    let text = '';
    return {
      io: { stdout: { write: () => undefined }, stderr: { write: (s: string) => (text += s) }, env: {}, cwd: REPO, isTTY: false, stdin: Readable.from([]) },
      text: () => text,
    };
  };

  it('an unexpected error is one line, with a hint to --debug', () => {
    const c = capture();
    expect(exitCodeFor(new TypeError('boom'), c.io)).toBe(1);
    expect(c.text().trim().split('\n')).toHaveLength(1);
    expect(c.text()).toContain('Internal error: boom');
    expect(c.text()).toContain('--debug');
  });

  it('--debug or GWOPS_DEBUG=1 adds the stack', () => {
    expect(debugEnabled(['node', 'gwops', 'plan', '--debug'], {})).toBe(true);
    expect(debugEnabled(['node', 'gwops', 'plan'], { GWOPS_DEBUG: '1' })).toBe(true);
    expect(debugEnabled(['node', 'gwops', 'plan'], { GWOPS_DEBUG: '0' })).toBe(false);
    const c = capture();
    exitCodeFor(new TypeError('boom'), c.io, true);
    expect(c.text()).toMatch(/\n\s+at /);
  });
});
