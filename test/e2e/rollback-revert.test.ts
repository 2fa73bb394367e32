/**
 * After `gwops rollback`, the `git revert` it suggests makes Git agree with the gateway, end
 * to end in a real Git repository against the emulator: commits A, B and C applied (a
 * commit X between B and C never applied on its own, another project's activation in
 * between), a rollback to A names B and C as undone and suggests reverting the line from A
 * to C; running the suggested commands leaves the manifests as A's, and drift reports none.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const t = useHarness();

const GIT_ENV = { GIT_AUTHOR_NAME: 'Tess Ter', GIT_AUTHOR_EMAIL: 'tess@example.com', GIT_COMMITTER_NAME: 'Tess Ter', GIT_COMMITTER_EMAIL: 'tess@example.com' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } }).trim();
}

function shop(backendPath: string, port: number, extra = false): string {
  return `apiVersion: gwops/v1
kind: back-end-group
name: rv-web
attributes:
  backendHosts:
    - { protocol: HTTP, hostName: rv.example.internal, port: ${port} }
---
apiVersion: gwops/v1
kind: mapping
name: rv-shop
attributes:
  entryPath: { value: /rv/ }
  backendPath: ${backendPath}
relationships:
  back-end-groups: [rv-web]
${
  extra
    ? `---
apiVersion: gwops/v1
kind: mapping
name: rv-extra
attributes:
  entryPath: { value: /rv-extra/ }
relationships:
  back-end-groups: [rv-web]
`
    : ''
}`;
}

async function commit(repo: string, text: string, message: string): Promise<string> {
  await writeFile(join(repo, 'manifests', 'shop.yaml'), text);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
  return git(repo, 'rev-parse', '--short=7', 'HEAD');
}

describe('rollback suggests the revert of every commit applied after the target', () => {
  it('apply A, B, C; rollback A; the suggested commands make Git agree (drift exit 0)', async () => {
    const repo = join(t.h.dir, 'revert-repo');
    await mkdir(join(repo, 'manifests'), { recursive: true });
    git(repo, 'init', '-q', '-b', 'main');
    await writeFile(join(repo, 'gwops.yaml'), "manifests: [manifests]\nownership:\n  mapping: ['name=@rv-']\n  back-end-group: ['name=@rv-']\n");
    const apply = async (): Promise<void> => {
      const r = await t.h.cli(['apply', '--yes', ...t.h.connection], { cwd: repo });
      expect(r.code, r.stderr).toBe(0);
    };
    const a = await commit(repo, shop('/a/', 8080), 'Route the shop to /a/');
    await apply();
    const b = await commit(repo, shop('/b/', 8080), 'Route the shop to /b/');
    await apply();
    // Another project on the same gateway applies between them: not this project's commit.
    const other = await writeManifests(t.h, 'revert-other', {
      'gwops.yaml': "ownership:\n  back-end-group: ['name=@other-']\n",
      'web.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: other-web\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: other.internal, port: 8080 }]\n',
    });
    const otherApply = await t.h.cli(['apply', '--yes', '--config', join(other, 'gwops.yaml'), other, ...t.h.connection, '--comment', 'gwops apply: 0123456 other team (Otto)']);
    expect(otherApply.code, otherApply.stderr).toBe(0);
    // X is never applied on its own; C, applied, holds it.
    const x = await commit(repo, shop('/b/', 9090), 'Move the shop back end to port 9090');
    const c = await commit(repo, shop('/c/', 9090, true), 'Route the shop to /c/ and add an extra mapping');
    await apply();

    const history = await t.h.cli(['history', ...t.h.connection]);
    expect(history.stdout).toContain(b);

    const rollback = await t.h.cli(['rollback', '--yes', ...t.h.connection, a], { cwd: repo });
    expect(rollback.code, rollback.stderr).toBe(0);
    expect(rollback.stdout).toContain(`The rollback undid what was applied after ${a}, oldest first: ${b} "Route the shop to /b/", ${c} "Route the shop to /c/ and add an extra mapping".`);
    expect(rollback.stdout).toContain(`  git revert --no-commit ${a}..${c}\n`);
    expect(rollback.stdout).not.toMatch(new RegExp(`git revert ${c}\\b`));
    expect(rollback.stdout).not.toContain('0123456');

    const drifted = await t.h.cli(['drift', ...t.h.connection], { cwd: repo });
    expect(drifted.code).toBe(2);

    // Run what was suggested, as a user pastes it.
    const commands = rollback.stdout.split('\n').filter((l) => l.startsWith('  git '));
    expect(commands).toHaveLength(2);
    for (const command of commands) execFileSync('sh', ['-c', command], { cwd: repo, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
    expect(git(repo, 'diff', '--stat', a, 'HEAD')).toBe('');
    expect(git(repo, 'log', '--format=%s', '-1')).toContain(a);
    expect(x).not.toBe(c);

    const agreed = await t.h.cli(['drift', ...t.h.connection], { cwd: repo });
    expect(agreed.code, agreed.stdout + agreed.stderr).toBe(0);
    const plan = await t.h.cli(['plan', '--detailed-exitcode', ...t.h.connection], { cwd: repo });
    expect(plan.code, plan.stdout).toBe(0);
  });
});
