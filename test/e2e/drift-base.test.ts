/**
 * Drift with a base, end to end against the emulator, in real Git repositories: the
 * desired state of the commit this project last applied (named by its activation comment)
 * tells apart a change on the gateway, a change in Git not applied yet, and a conflict;
 * `drift --adopt` writes only the gateway's changes; without a base drift says so in one
 * line; two projects on one gateway each use their own base; an apply from a modified
 * working tree marks its comment `-dirty`, warns, and is no base.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Tess Ter', '-c', 'user.email=tess@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' }).trim();
}

/** A project of one back-end group and one mapping named after `prefix`, its mapping's `backendPath` and the group's port given. */
function manifests(prefix: string, backendPath: string, port = 8080): string {
  return `apiVersion: gwops/v1
kind: back-end-group
name: ${prefix}-web
attributes:
  backendHosts:
    - { protocol: HTTP, hostName: ${prefix}.example.internal, port: ${port} }
---
apiVersion: gwops/v1
kind: mapping
name: ${prefix}-shop
attributes:
  entryPath: { value: /${prefix}/ }
  backendPath: ${backendPath}
relationships:
  back-end-groups: [${prefix}-web]
`;
}

const projectFile = (prefix: string): string => `manifests: [manifests]
ownership:
  mapping: ['name=@${prefix}-']
  back-end-group: ['name=@${prefix}-']
`;

/** A Git repository holding the project `prefix` in `sub` (the repository's root when empty), its first commit made. */
async function repository(name: string, projects: readonly { prefix: string; sub: string; backendPath: string }[]): Promise<string> {
  const repo = join(t.h.dir, name);
  await mkdir(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  for (const p of projects) {
    await mkdir(join(repo, p.sub, 'manifests'), { recursive: true });
    await writeFile(join(repo, p.sub, 'gwops.yaml'), projectFile(p.prefix));
    await writeFile(join(repo, p.sub, 'manifests', 'shop.yaml'), manifests(p.prefix, p.backendPath));
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'first');
  return repo;
}

async function commit(repo: string, file: string, text: string, message: string): Promise<string> {
  await writeFile(join(repo, file), text);
  git(repo, 'commit', '-q', '-am', message);
  return git(repo, 'rev-parse', '--short=7', 'HEAD');
}

interface Entry {
  direction: string;
  kind: string;
  name: string;
  path?: string;
  side?: string;
  declared?: unknown;
  live?: unknown;
}
interface Report {
  entries: Entry[];
  base?: { sha: string; configuration: string };
  baseUnavailable?: string;
  gatewayDrifted: boolean;
}

async function driftJson(cwd: string): Promise<{ code: number; report: Report; stderr: string }> {
  const r = await t.h.cli(['drift', '--format', 'json', ...t.h.connection], { cwd });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

/** Changes a mapping's or back-end group's attributes by hand, activated with a comment of its own. */
async function byHand(kind: 'mappings' | 'back-end-groups', name: string, attributes: Record<string, unknown>): Promise<void> {
  await t.h.raw(async (s) => {
    const [found] = await s.list(kind, [`name==${name}`]);
    if (!found) throw new Error(`${name} is not on the gateway`);
    await s.update(kind, found.id, { type: kind === 'mappings' ? 'mapping' : 'back-end-group', attributes });
  }, 'hotfix by hand');
}

async function apply(cwd: string): Promise<{ code: number; stderr: string; stdout: string }> {
  return t.h.cli(['apply', '--yes', ...t.h.connection], { cwd });
}

describe('drift with the base of the last apply', () => {
  it('reports a commit not applied yet as Git\'s, and --adopt keeps its value', async () => {
    const repo = await repository('unapplied', [{ prefix: 'ua', sub: '', backendPath: '/a/' }]);
    expect((await apply(repo)).code).toBe(0);
    const first = git(repo, 'rev-parse', '--short=7', 'HEAD');
    await commit(repo, 'manifests/shop.yaml', manifests('ua', '/b/'), 'move to b');

    const { code, report } = await driftJson(repo);
    expect(code).toBe(2);
    expect(report.base?.sha).toBe(first);
    expect(report.entries).toEqual([expect.objectContaining({ direction: 'changed', kind: 'mapping', name: 'ua-shop', path: 'backendPath', side: 'git', declared: '/b/', live: '/a/' })]);
    expect(report.gatewayDrifted).toBe(false);
    expect((await t.h.cli(['drift', '--fail-on', 'gateway', ...t.h.connection], { cwd: repo })).code).toBe(0);
    const text = await t.h.cli(['drift', ...t.h.connection], { cwd: repo });
    expect(text.stdout).toContain('Drift detected: Git holds changes not applied yet; the gateway still holds what this project last applied.');
    expect(text.stdout).toContain('Changed in Git, not applied yet');
    expect(text.stdout).toContain('Drift: 0 changed on the gateway since the last apply, 1 changed in Git and not applied yet, 0 conflicts.');
    expect(text.stdout).not.toContain('Changed on the gateway since the last apply');
    const markdown = await t.h.cli(['drift', '--format', 'markdown', ...t.h.connection], { cwd: repo });
    expect(markdown.stdout).toContain(`Base: commit \`${first}\`, last applied by this project in configuration`);
    expect(markdown.stdout).toMatch(/#### Changed in Git, not applied yet[^\n]*\n\n##### Changed in Git\n\n\| Object \| Attribute \| Manifests \| Gateway \|/);

    const adopted = await t.h.cli(['drift', '--adopt', ...t.h.connection], { cwd: repo });
    expect(adopted.stderr).toContain('Kept as Git has them');
    expect(await readFile(join(repo, 'manifests', 'shop.yaml'), 'utf8')).toContain('backendPath: /b/');
  });

  it('reports a change by hand as the gateway\'s, adopts it, and names it in plan before reverting it', async () => {
    const repo = await repository('by-hand', [{ prefix: 'bh', sub: '', backendPath: '/a/' }]);
    expect((await apply(repo)).code).toBe(0);
    await byHand('mappings', 'bh-shop', { backendPath: '/hotfix/' });

    const { report } = await driftJson(repo);
    expect(report.entries).toEqual([expect.objectContaining({ name: 'bh-shop', path: 'backendPath', side: 'gateway', declared: '/a/', live: '/hotfix/' })]);
    expect(report.gatewayDrifted).toBe(true);
    expect((await t.h.cli(['drift', '--fail-on', 'gateway', ...t.h.connection], { cwd: repo })).code).toBe(2);

    const plan = await t.h.cli(['plan', '--no-server-check', ...t.h.connection], { cwd: repo });
    expect(plan.stderr).toMatch(/^Changed outside gwops since this project's last apply .*this plan reverts:\n {2}mapping "bh-shop" backendPath: gateway "\/hotfix\/" → Git "\/a\/"\n/m);
    expect(plan.stderr).toMatch(/admin {2}"hotfix by hand"/);
    // apply says the same before it asks; without consent nothing is changed.
    const refused = await t.h.cli(['apply', ...t.h.connection], { cwd: repo });
    expect(refused.stderr).toContain('this plan reverts:\n  mapping "bh-shop" backendPath: gateway "/hotfix/" → Git "/a/"');

    expect((await t.h.cli(['drift', '--adopt', ...t.h.connection], { cwd: repo })).code).toBe(2);
    expect(await readFile(join(repo, 'manifests', 'shop.yaml'), 'utf8')).toContain('backendPath: /hotfix/');
  });

  it('reports a change on both sides as a conflict and --adopt does not write it', async () => {
    const repo = await repository('both', [{ prefix: 'bo', sub: '', backendPath: '/a/' }]);
    expect((await apply(repo)).code).toBe(0);
    await commit(repo, 'manifests/shop.yaml', manifests('bo', '/b/', 9090), 'move to b, port 9090');
    await byHand('mappings', 'bo-shop', { backendPath: '/hotfix/' });

    const { report } = await driftJson(repo);
    const sides = Object.fromEntries(report.entries.map((e) => [`${e.name} ${e.path ?? ''}`, e.side]));
    expect(sides).toEqual({ 'bo-shop backendPath': 'both', 'bo-web backendHosts': 'git' });

    const adopted = await t.h.cli(['drift', '--adopt', ...t.h.connection], { cwd: repo });
    expect(adopted.stderr).toMatch(/Conflicts, not adopted[^\n]*\n {2}mapping 'bo-shop' backendPath/);
    const text = await readFile(join(repo, 'manifests', 'shop.yaml'), 'utf8');
    expect(text).toContain('backendPath: /b/');
    expect(text).toContain('port: 9090');
  });

  it('says in one line that there is no base when this project\'s last activation names no commit, and compares two sides', async () => {
    const repo = await repository('no-base', [{ prefix: 'nb', sub: '', backendPath: '/a/' }]);
    // A comment of one's own names no commit; a comment with no project trailer (an older gwops's) is no project's.
    expect((await t.h.cli(['apply', '--yes', '--comment', 'applied by hand-written comment', ...t.h.connection], { cwd: repo })).code).toBe(0);
    await t.h.raw((session) => session.configurations(), 'gwops apply: 1234567 an older gwops (Old Timer)');
    await byHand('mappings', 'nb-shop', { backendPath: '/hotfix/' });
    const { code, report, stderr } = await driftJson(repo);
    expect(code).toBe(2);
    expect(report.base).toBeUndefined();
    expect(report.baseUnavailable).toMatch(/the last activation of this project \(configuration \d+\) names no commit/);
    expect(report.entries).toEqual([expect.objectContaining({ name: 'nb-shop', path: 'backendPath', declared: '/a/', live: '/hotfix/' })]);
    expect(report.entries[0]?.side).toBeUndefined();
    expect(stderr.split('\n').filter((l) => /base/i.test(l))).toEqual([expect.stringMatching(/^note: No base: .*names no commit/)]);
  });

  it('says in one line that a shallow clone lacks the commit last applied, and compares two sides', async () => {
    const repo = await repository('shallow-origin', [{ prefix: 'sh', sub: '', backendPath: '/a/' }]);
    expect((await apply(repo)).code).toBe(0);
    const applied = git(repo, 'rev-parse', '--short=7', 'HEAD');
    await commit(repo, 'manifests/shop.yaml', manifests('sh', '/b/'), 'move to b');
    const clone = join(t.h.dir, 'shallow-clone');
    git(t.h.dir, 'clone', '-q', '--depth', '1', `file://${repo}`, clone);
    const { code, report, stderr } = await driftJson(clone);
    expect(code).toBe(2);
    expect(report.baseUnavailable).toBe(`commit ${applied} is not in this clone (it is a shallow clone: fetch the whole history, e.g. actions/checkout with fetch-depth: 0)`);
    expect(report.entries).toEqual([expect.objectContaining({ name: 'sh-shop', path: 'backendPath', declared: '/b/', live: '/a/' })]);
    expect(report.entries[0]?.side).toBeUndefined();
    expect(stderr.split('\n').filter((l) => /base/i.test(l))).toHaveLength(1);
  });

  it('uses each project\'s own last activation as the base when two projects share a gateway', async () => {
    const repo = await repository('two-projects', [
      { prefix: 'tpa', sub: 'team-a', backendPath: '/a1/' },
      { prefix: 'tpb', sub: 'team-b', backendPath: '/b1/' },
    ]);
    const teamA = join(repo, 'team-a');
    const teamB = join(repo, 'team-b');
    expect((await apply(teamA)).code).toBe(0);
    const baseA = git(repo, 'rev-parse', '--short=7', 'HEAD');
    // Team A commits a change it does not apply; team B commits and applies later.
    await commit(repo, 'team-a/manifests/shop.yaml', manifests('tpa', '/a2/'), 'team a: a2');
    await commit(repo, 'team-b/manifests/shop.yaml', manifests('tpb', '/b2/'), 'team b: b2');
    expect((await apply(teamB)).code).toBe(0);
    const baseB = git(repo, 'rev-parse', '--short=7', 'HEAD');

    const a = await driftJson(teamA);
    expect(a.report.base?.sha).toBe(baseA);
    expect(a.report.entries).toEqual([expect.objectContaining({ name: 'tpa-shop', path: 'backendPath', side: 'git' })]);
    const b = await driftJson(teamB);
    expect(b.report.base?.sha).toBe(baseB);
    expect(b.report.entries).toEqual([]);
  });

  it('marks an apply from a modified working tree -dirty, warns, and does not use it as a base', async () => {
    const repo = await repository('dirty', [{ prefix: 'dy', sub: '', backendPath: '/a/' }]);
    const head = git(repo, 'rev-parse', '--short=7', 'HEAD');
    await writeFile(join(repo, 'manifests', 'shop.yaml'), manifests('dy', '/uncommitted/'));
    const applied = await apply(repo);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toMatch(new RegExp(`warning: the working tree has uncommitted changes: what is applied is not commit ${head}`));
    const active = (await t.h.raw((s) => s.configurations())).find((c) => c.configType === 'CURRENTLY_ACTIVE');
    expect(active?.comment).toMatch(new RegExp(`^gwops apply: ${head}-dirty first \\(Tess Ter\\)`));
    const history = await t.h.cli(['history', ...t.h.connection], { cwd: repo });
    expect(history.stdout).toContain(`${head}-dirty`);

    const { report } = await driftJson(repo);
    expect(report.base).toBeUndefined();
    expect(report.baseUnavailable).toMatch(/uncommitted changes/);
  });
});
