/**
 * `apply --yes` with stdout going to a file or a pipe writes the plan's text while its
 * calls wait for the gateway (src/cli/backlog.ts): stdout ends up holding exactly what
 * `plan` prints, then the outcome, whether the apply succeeds or a call fails; and the
 * text was written during the calls, not before the first or after the last. `plan` makes
 * its text while the server check's calls wait, and prints the same as without it, in
 * every outcome of the check.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { REPO, useHarness, writeManifests } from './harness.js';
import { manyBackEndGroups } from './many-objects.js';

/** Enough groups that the text (a few hundred bytes each) takes several writes of 64 KiB. */
const COUNT = 400;

const CREATE_PATH = '/configuration/back-end-groups';

/** The plan's text of `plan` on stdout, without the sentence on its server check that ends it. */
function planText(stdout: string): string {
  return stdout.replace(/\nServer check: [^\n]*\n$/, '');
}

describe('apply --yes writes the plan while its calls wait', () => {
  const t = useHarness();

  /** Runs the CLI with each write to stdout recorded beside how many creates the gateway had answered by then. */
  async function applyRecorded(dir: string): Promise<{ code: number; writes: { text: string; creates: number }[]; stderr: string }> {
    const creates = (): number => t.h.emulator.requestLog.filter((e) => e.method === 'POST' && e.path === CREATE_PATH).length;
    const before = creates();
    const writes: { text: string; creates: number }[] = [];
    let stderr = '';
    const code = await main(['node', 'gwops', 'apply', '--yes', dir, ...t.h.connection], {
      stdout: { write: (text: string) => writes.push({ text, creates: creates() - before }) },
      stderr: { write: (text: string) => (stderr += text) },
      env: t.h.env,
      cwd: REPO,
      isTTY: false,
      stdin: Readable.from([]),
    });
    t.h.outputs.push(...writes.map((w) => w.text), stderr);
    return { code, writes, stderr };
  }

  it('prints what plan prints, then the outcome, having written it while the creates were sent', async () => {
    const dir = await writeManifests(t.h, 'while', manyBackEndGroups('while', COUNT));
    const planned = await t.h.cli(['plan', '--no-server-check', dir, ...t.h.connection]);
    expect(planned.code).toBe(0);
    expect(planned.stdout.length).toBeGreaterThan(2 * 64 * 1024);
    const run = await applyRecorded(dir);
    expect(run.code, run.stderr).toBe(0);
    const stdout = run.writes.map((w) => w.text).join('');
    const text = planText(planned.stdout);
    expect(stdout.slice(0, text.length)).toBe(text);
    expect(stdout.slice(text.length)).toMatch(/^\nApply complete: configuration \S+ activated with comment "[^"\n]*"\.\n$/);
    // The first write of the text went out once some creates were answered, and before the last.
    const first = run.writes[0];
    expect(first?.creates).toBeGreaterThan(0);
    expect(first?.creates).toBeLessThan(COUNT);
  });

  it('prints the whole plan when a create fails midway, and the failure after it', async () => {
    const dir = await writeManifests(t.h, 'failing', manyBackEndGroups('failing', COUNT));
    const planned = await t.h.cli(['plan', '--no-server-check', dir, ...t.h.connection]);
    expect(planned.code).toBe(0);
    t.h.emulator.faults.add({ method: 'POST', path: CREATE_PATH, status: 422, nth: COUNT / 2 });
    try {
      const run = await applyRecorded(dir);
      expect(run.code).toBe(1);
      expect(run.writes.map((w) => w.text).join('')).toBe(planText(planned.stdout));
      expect(run.stderr).toMatch(/failing-199/);
      expect(run.writes[0]?.creates).toBeGreaterThan(0);
      expect(run.writes[0]?.creates).toBeLessThan(COUNT / 2);
    } finally {
      t.h.emulator.faults.clear();
    }
  });

  it("plan's server check prints the plan's text once, as without it, then the validator's messages", async () => {
    const dir = await writeManifests(t.h, 'checked', manyBackEndGroups('checked', COUNT));
    const unchecked = await t.h.cli(['plan', '--no-server-check', dir, ...t.h.connection]);
    expect(unchecked.code).toBe(0);
    const checked = await t.h.cli(['plan', dir, ...t.h.connection]);
    expect(checked.code, checked.stderr).toBe(0);
    const text = planText(unchecked.stdout);
    expect(checked.stdout.slice(0, text.length)).toBe(text);
    expect(checked.stdout.slice(text.length)).not.toContain('Plan: ');
    // A call of the check refused: nothing on stdout, as before the text was made during the calls.
    t.h.emulator.faults.add({ method: 'POST', path: CREATE_PATH, status: 422, nth: COUNT / 2 });
    try {
      const failed = await t.h.cli(['plan', dir, ...t.h.connection]);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toBe('');
    } finally {
      t.h.emulator.faults.clear();
    }
    // A read-only key: the plan from what was read, once.
    const readOnly = join(t.h.dir, 'read-only-key');
    await writeFile(readOnly, t.h.emulator.readOnlyApiKey);
    const connection = t.h.connection.map((part, i) => (t.h.connection[i - 1] === '--api-key-file' ? readOnly : part));
    const forbidden = await t.h.cli(['plan', dir, ...connection]);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stdout).toBe(text);
  });
});
