/**
 * The shell steps of action.yml with the real gwops (this checkout's bin and dist) against
 * the emulator, run by the stand-in runner of test/ci/action-runner.ts. The runner waits
 * for each step (spawnSync), so the emulator runs in a process of its own, as in the
 * action job of .github/workflows/ci.yml. A plan of 400 new
 * objects, larger than a pull-request comment, lands whole in the job summary, and the
 * plan files for the artifact are written (the markdown, the text plan, the JSON plan file).
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, loadAction, runComposite } from '../ci/action-runner.js';
import { groupName, manyBackEndGroups } from './many-objects.js';
import type { GwopsProcess } from './spawn.js';
import { startGwops } from './spawn.js';

const COUNT = 400;

const temp = mkdtempSync(join(tmpdir(), 'gwops-action-plan-'));
let emulator: GwopsProcess;
let url = '';

beforeAll(async () => {
  emulator = startGwops(['emulator', '--no-tls', '--port', '0', '--api-key-file', join(temp, 'key'), '--read-only-api-key-file', join(temp, 'read-only-key')]);
  await emulator.waitFor(/listening on (http:\/\/\S+)/);
  url = /listening on (http:\/\/\S+)/.exec(emulator.stdout + emulator.stderr)?.[1] ?? '';
});
afterAll(async () => {
  emulator.child.kill('SIGTERM');
  await emulator.exited;
});

describe('the action runs plan against a gateway', () => {
  it('writes all of a 400-object plan to the job summary and the plan files for the artifact', () => {
    const manifests = join(temp, 'groups.yaml');
    writeFileSync(manifests, manyBackEndGroups('action-group', COUNT)['groups.yaml'] ?? '');
    const r = runComposite(loadAction(), {
      with: { command: 'plan', args: `${manifests} --url ${url} --api-key-file ${join(temp, 'key')} --no-server-check` },
      replace: { install: { bin: join(ROOT, 'bin', 'gwops.js'), dist: join(ROOT, 'dist') } },
      env: { GITHUB_JOB: 'plan' },
      cwd: temp,
    });
    expect(r.log).not.toContain('::error');
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({ exitcode: '2', 'has-changes': 'true' });
    expect(Buffer.byteLength(r.summary)).toBeGreaterThan(65_536);
    expect(Buffer.byteLength(r.summary)).toBeLessThanOrEqual(1_048_576);
    for (let i = 0; i < COUNT; i++) expect(r.summary).toContain(`back-end-group "${groupName('action-group', i)}"</code>`);
    expect(r.summary).not.toContain('not shown');

    const files = r.steps.run?.outputs['plan-files'] ?? '';
    expect(readdirSync(files).sort()).toEqual(['plan.json', 'plan.md', 'plan.txt']);
    expect(readFileSync(join(files, 'plan.md'), 'utf8')).toBe(readFileSync(r.outputs.report ?? '', 'utf8'));
    const text = readFileSync(join(files, 'plan.txt'), 'utf8');
    for (let i = 0; i < COUNT; i++) expect(text).toContain(groupName('action-group', i));
    expect(JSON.parse(readFileSync(join(files, 'plan.json'), 'utf8'))).toMatchObject({ summary: { create: COUNT } });
    expect(r.steps.run?.outputs.artifact).toBe('gwops-plan-default-plan');
    expect(r.summary).toContain('in the artifact `gwops-plan-default-plan` of this run');
  }, 180_000);
});
