/**
 * The markdown plan's length bound: 60,000 characters by default (a pull-request comment
 * holds 65,536), `--max-bytes` for a place that holds more (the job summary of the GitHub
 * action, 1 MiB). A plan of 400 new back-end groups, planned against the emulator.
 */
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';
import { groupName, manyBackEndGroups } from './many-objects.js';

const COUNT = 400;

describe('plan --format markdown --max-bytes', () => {
  const t = useHarness();

  it('shows every one of 400 new objects within a larger bound, and cuts at the default one with a note', async () => {
    const dir = await writeManifests(t.h, 'length', manyBackEndGroups('length-group', COUNT));
    const whole = await t.h.cli(['plan', dir, ...t.h.connection, '--format', 'markdown', '--no-server-check', '--max-bytes', '1000000']);
    expect(whole.stderr).not.toMatch(/error/i);
    expect(whole.code).toBe(0);
    expect(Buffer.byteLength(whole.stdout)).toBeGreaterThan(60_000);
    expect(Buffer.byteLength(whole.stdout)).toBeLessThanOrEqual(1_000_000);
    for (let i = 0; i < COUNT; i++) expect(whole.stdout).toContain(`back-end-group "${groupName('length-group', i)}"</code>`);
    expect(whole.stdout).not.toContain('not shown');

    const cut = await t.h.cli(['plan', dir, ...t.h.connection, '--format', 'markdown', '--no-server-check']);
    expect(Buffer.byteLength(cut.stdout)).toBeLessThanOrEqual(60_000);
    expect(cut.stdout).toMatch(/_\d+ more objects not shown/);
  }, 120_000);

  it('refuses a bound that is not a whole number of bytes, before contacting the gateway', async () => {
    for (const bad of ['0', '-5', '12.5', 'lots']) {
      const r = await t.h.cli(['plan', ...t.config, '--format', 'markdown', '--max-bytes', bad]);
      expect(r.code, bad).toBe(1);
      expect(r.stderr).toContain(`--max-bytes ${JSON.stringify(bad)}: expected a whole number of bytes from 1000`);
    }
  });
});
