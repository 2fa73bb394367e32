/**
 * The `git revert` that `gwops rollback` suggests (src/engine/revert-advice.ts,
 * src/operations/steps/git-revert.ts), over generated histories in real Git repositories:
 * a main line of commits (some of them merges of a side branch), and a configuration
 * history of this project's applies (some commits never applied, some applied twice or
 * again after a newer one), other projects' applies (of commits of the same repository or
 * another), changes by hand and earlier rollbacks. For every rollback target: the advice
 * names exactly this project's commits applied after it, in order, and its commands, run
 * in the repository at the newest of them, leave the tree exactly as the target's commit
 * has it. Without Git the commands name the same commits, newest first.
 * GWOPS_DRILLS=full runs more histories.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdviceEntry } from '../../src/engine/revert-advice.js';
import { commitsAppliedAfter, revertAdvice } from '../../src/engine/revert-advice.js';
import { parseActivationComment } from '../../src/engine/commit-comment.js';
import { readGitLine } from '../../src/operations/steps/git-revert.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'Tess Ter', GIT_AUTHOR_EMAIL: 'tess@example.com', GIT_COMMITTER_NAME: 'Tess Ter', GIT_COMMITTER_EMAIL: 'tess@example.com' };
const git = (cwd: string, args: readonly string[]): string => execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

const PROJECT = 'aaaaaaaaaaaa';
const OTHER_PROJECT = 'bbbbbbbbbbbb';

/** One commit of the main line: an edit of one of three manifest files, or the merge of a side branch's edit. */
const commitArb = fc.record({ file: fc.integer({ min: 0, max: 2 }), merge: fc.boolean() });

/** One activation of the history, oldest first. */
type Event =
  | { readonly type: 'apply'; readonly commit: number }
  | { readonly type: 'other'; readonly commit: number | undefined }
  | { readonly type: 'manual' }
  | { readonly type: 'rollback' };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  { weight: 5, arbitrary: fc.nat(7).map((commit): Event => ({ type: 'apply', commit })) },
  { weight: 1, arbitrary: fc.option(fc.nat(7), { nil: undefined }).map((commit): Event => ({ type: 'other', commit })) },
  { weight: 1, arbitrary: fc.constant<Event>({ type: 'manual' }) },
  { weight: 1, arbitrary: fc.constant<Event>({ type: 'rollback' }) },
);

/** Writes the main line into a fresh repository; returns the short SHAs of its commits, oldest first. */
function buildRepository(repo: string, commits: readonly { file: number; merge: boolean }[]): string[] {
  git(repo, ['init', '-q', '-b', 'main']);
  const shas: string[] = [];
  commits.forEach((c, i) => {
    if (c.merge && i > 0) {
      git(repo, ['checkout', '-q', '-b', `side-${i}`]);
      execFileSync('sh', ['-c', `echo side ${i} >> side.yaml`], { cwd: repo });
      git(repo, ['add', '-A']);
      git(repo, ['commit', '-q', '-m', `side ${i}`]);
      git(repo, ['checkout', '-q', 'main']);
      git(repo, ['merge', '-q', '--no-ff', `side-${i}`, '-m', `Merge side ${i}`]);
    } else {
      execFileSync('sh', ['-c', `echo "value: ${i}" >> m${c.file}.yaml`], { cwd: repo });
      git(repo, ['add', '-A']);
      git(repo, ['commit', '-q', '-m', `Change ${i}`]);
    }
    shas.push(git(repo, ['rev-parse', '--short=7', 'HEAD']));
  });
  return shas;
}

/** The configurations list (newest first) the events make, with the comments gwops writes. */
function configurations(events: readonly Event[], shas: readonly string[]): AdviceEntry[] {
  const at = (i: number): string => shas[i % shas.length] ?? '';
  const comments = events.map((e, k): string => {
    switch (e.type) {
      case 'apply':
        return `gwops apply: ${at(e.commit)} Change ${e.commit % shas.length} (Tess Ter) gwops-project=${PROJECT}`;
      case 'other':
        return `gwops apply: ${e.commit === undefined ? 'fedcba9' : at(e.commit)} Other team (Otto) gwops-project=${OTHER_PROJECT}`;
      case 'manual':
        return `hotfix ${k}`;
      case 'rollback':
        return 'gwops rollback: to configuration 1';
    }
  });
  return comments.map((comment, k) => ({ id: String(k + 1), apply: parseActivationComment(comment) })).reverse();
}

/** The oracle: this project's commits (indexes) applied after event `target`, each at its newest application, oldest first, the target's own left out. */
function expectedApplied(events: readonly Event[], target: number, count: number): number[] {
  const targetEvent = events[target];
  const targetCommit = targetEvent?.type === 'apply' ? targetEvent.commit % count : -1;
  const order: number[] = [];
  for (const e of events.slice(target + 1)) {
    if (e.type !== 'apply' || e.commit % count === targetCommit) continue;
    const i = e.commit % count;
    const at = order.indexOf(i);
    if (at >= 0) order.splice(at, 1);
    order.push(i);
  }
  return order;
}

const full = process.env.GWOPS_DRILLS === 'full';

describe('the revert gwops rollback suggests', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'gwops-revert-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('names exactly the commits applied after the target, in order, and its commands restore the target commit\'s tree', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(commitArb, { minLength: 2, maxLength: 6 }), fc.array(eventArb, { minLength: 1, maxLength: 9 }), fc.nat(), async (commits, rawEvents, pick) => {
        const events: Event[] = [{ type: 'apply', commit: 0 }, ...rawEvents];
        const repo = join(root, `r${run++}`);
        await mkdir(repo);
        const shas = buildRepository(repo, commits);
        const entries = configurations(events, shas);
        const applies = events.map((e, k) => (e.type === 'apply' ? k : -1)).filter((k) => k >= 0);
        const targetEvent = applies[pick % applies.length] ?? 0;
        const targetId = String(targetEvent + 1);
        const targetSha = entries.find((e) => e.id === targetId)?.apply?.sha;
        const expected = expectedApplied(events, targetEvent, shas.length);

        const applied = commitsAppliedAfter(entries, targetId, PROJECT);
        expect(applied.map((c) => c.sha)).toEqual(expected.map((i) => shas[i]));

        // Without Git: the same commits, newest first.
        const listed = revertAdvice(targetSha, applied, undefined);
        if (expected.length === 0) expect(listed.kind).toBe('nothing');
        else expect(listed).toMatchObject({ kind: 'list', commands: [['git', 'revert', '--no-commit', ...[...expected].reverse().map((i) => shas[i])], expect.any(Array)] });

        // With Git: from the newest of them, the commands give the target commit's tree.
        const line = await readGitLine(repo, targetSha ?? '', applied);
        const advice = revertAdvice(targetSha, applied, line);
        const targetIndex = shas.indexOf(targetSha ?? '');
        const tip = Math.max(targetIndex, ...expected);
        expect(advice.kind).toBe(tip === targetIndex ? 'nothing' : 'range');
        git(repo, ['checkout', '-q', '--detach', shas[tip] ?? '']);
        if (advice.kind === 'range') for (const [command = '', ...args] of advice.commands) execFileSync(command, args, { cwd: repo, env: GIT_ENV, stdio: 'ignore' });
        expect(git(repo, ['rev-parse', 'HEAD^{tree}'])).toBe(git(repo, ['rev-parse', `${targetSha ?? ''}^{tree}`]));
        await rm(repo, { recursive: true, force: true });
      }),
      { numRuns: full ? 300 : 12, seed: 4343 },
    );
  }, 180_000);
});
