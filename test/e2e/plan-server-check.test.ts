/**
 * Every format of `gwops plan` says whether the gateway's validator checked the plan and
 * found nothing, or was not asked (`--no-server-check`): a clean plan and an unchecked one
 * no longer look alike. Planned against the emulator.
 */
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const PASSED = "Server check: the gateway's validator checked this plan (in a session that was then discarded) and reported no messages.";
const SKIPPED = "Server check: skipped (--no-server-check): the gateway's validator has not checked this plan.";

describe('plan says what came of its server check', () => {
  const t = useHarness();

  it('checked with no messages: passed, in text, markdown and JSON', async () => {
    const text = await t.h.cli(['plan', ...t.config]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`\n${PASSED}\n`);
    const markdown = await t.h.cli(['plan', ...t.config, '--format', 'markdown']);
    expect(markdown.stdout).toContain(`_${PASSED}_`);
    const json = await t.h.cli(['plan', ...t.config, '--format', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ serverCheck: 'passed', diagnostics: [] });
  });

  it('--no-server-check: skipped, in text, markdown, github and JSON', async () => {
    const text = await t.h.cli(['plan', ...t.config, '--no-server-check']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`\n${SKIPPED}\n`);
    expect(text.stdout).not.toContain(PASSED);
    const markdown = await t.h.cli(['plan', ...t.config, '--format', 'markdown', '--no-server-check']);
    expect(markdown.stdout).toContain(`_${SKIPPED}_`);
    const github = await t.h.cli(['plan', ...t.config, '--format', 'github', '--no-server-check']);
    expect(github.stdout).toContain(`\n${SKIPPED}\n`);
    const json = await t.h.cli(['plan', ...t.config, '--format', 'json', '--no-server-check']);
    expect(JSON.parse(json.stdout)).toMatchObject({ serverCheck: 'skipped' });
  });
});
