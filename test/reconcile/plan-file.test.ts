/** `apply --plan` reads only plan files of this gwops's format version. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { readPlanFile } from '../../src/reconcile/apply.js';
import { PLAN_FORMAT_VERSION } from '../../src/reconcile/plan-types.js';

function planFile(content: unknown): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gwops-plan-file-'));
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(content));
  return { dir, file: 'plan.json' };
}

const plan = (formatVersion: string) => ({
  formatVersion,
  liveDigest: 'sha256:0',
  summary: { create: 0, update: 0, delete: 0, link: 0, unlink: 0 },
  steps: [],
  unmanaged: [],
});

describe('readPlanFile', () => {
  it('is at format 3.0: the plan lists its calls since 3.0', () => {
    expect(PLAN_FORMAT_VERSION).toBe('3.0');
  });

  it('reads a plan of the current format', async () => {
    const { dir, file } = planFile(plan(PLAN_FORMAT_VERSION));
    expect((await readPlanFile(file, dir)).formatVersion).toBe(PLAN_FORMAT_VERSION);
  });

  it('refuses a plan of format 1.0 (steps with dependsOn) with the version message', async () => {
    const { dir, file } = planFile({ ...plan('1.0'), steps: [{ index: 1, action: 'create', dependsOn: [] }] });
    const attempt = readPlanFile(file, dir);
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow('plan file plan.json has formatVersion "1.0"; this gwops reads 3.0');
  });
});
