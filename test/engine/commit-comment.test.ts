/**
 * The activation comment is a contract (src/engine/commit-comment.ts): what
 * `activationComment` writes, `parseActivationComment` reads back, and `gwops history`
 * and `gwops rollback` rely on it.
 */
import { describe, expect, it } from 'vitest';
import {
  projectId,
  MAX_SUBJECT_LENGTH,
  activationComment,
  commentSubject,
  parseActivationComment,
  parseRollbackComment,
  rollbackComment,
} from '../../src/engine/commit-comment.js';
import type { CommitInfo } from '../../src/engine/commit-comment.js';

const SHA = '3f2c9a1d8e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a';
const RUN = 'https://github.com/acme/gateway/actions/runs/42';

describe('activationComment', () => {
  it('writes gwops apply: <sha7> <subject> (<author>) <run URL>', () => {
    expect(activationComment({ sha: SHA, subject: 'Route /shop to the new back end', author: 'Alice Example', runUrl: RUN })).toBe(
      `gwops apply: 3f2c9a1 Route /shop to the new back end (Alice Example) ${RUN}`,
    );
    expect(activationComment({ sha: SHA, subject: 'Fix', author: 'Bob' })).toBe('gwops apply: 3f2c9a1 Fix (Bob)');
    expect(activationComment({ sha: SHA })).toBe('gwops apply: 3f2c9a1');
    expect(activationComment({ subject: 'No SHA', author: 'Bob' })).toBe('gwops apply: No SHA (Bob)');
    expect(activationComment({})).toBe('gwops apply');
  });

  it('cuts a long subject to MAX_SUBJECT_LENGTH characters ending with …, and keeps one line', () => {
    const long = 'x'.repeat(MAX_SUBJECT_LENGTH + 50);
    const cut = commentSubject(long);
    expect([...cut]).toHaveLength(MAX_SUBJECT_LENGTH);
    expect(cut.endsWith('…')).toBe(true);
    expect(commentSubject('a\nb\r\nc')).toBe('a b c');
    // Code points, not UTF-16 units: an emoji is never split.
    const emoji = commentSubject('🚀'.repeat(MAX_SUBJECT_LENGTH + 1));
    expect([...emoji]).toEqual([...'🚀'.repeat(MAX_SUBJECT_LENGTH - 1), '…']);
  });
});

describe('parseActivationComment round-trips what activationComment writes', () => {
  const cases: [string, CommitInfo][] = [
    ['plain', { sha: SHA, subject: 'Add the shop mapping', author: 'Alice' }],
    ['with a run URL', { sha: SHA, subject: 'Add the shop mapping', author: 'Alice', runUrl: RUN }],
    ['parentheses in the subject', { sha: SHA, subject: 'fix(mapping): raise limits (again) (see #12)', author: 'Alice' }],
    ['colons in the subject', { sha: SHA, subject: 'feat: shop: api: v2', author: 'Bob' }],
    ['a subject that starts with hex', { sha: SHA, subject: 'deadbeefcafe is not a SHA', author: 'Bob' }],
    ['unicode', { sha: SHA, subject: 'Zürich: Straße → 東京 🚀', author: 'Jürgen Müßig' }],
    ['an author with parentheses', { sha: SHA, subject: 'x', author: 'Carol (ops)' }],
    ['a URL in the subject', { sha: SHA, subject: 'see https://example.com/a for details', author: 'Dave' }],
    ['no author', { sha: SHA, subject: 'only a subject' }],
    ['no subject', { sha: SHA, author: 'Eve' }],
    ['only a SHA', { sha: SHA }],
    ['no SHA', { subject: 'from a tarball', author: 'Frank' }],
    ['nothing', {}],
    ['a long subject', { sha: SHA, subject: `${'long words '.repeat(30)}end`, author: 'Grace', runUrl: RUN }],
    ['a long subject with parentheses', { sha: SHA, subject: `(${'y'.repeat(200)})`, author: 'Heidi' }],
    ['uncommitted changes', { sha: SHA, subject: 'Add the shop mapping', author: 'Alice', dirty: true }],
    ['a project', { sha: SHA, subject: 'Add the shop mapping', author: 'Alice', runUrl: RUN, project: projectId({ mapping: ['name=@shop-'] }) }],
    ['a project, uncommitted, nothing else', { sha: SHA, dirty: true, project: projectId({}) }],
    ['a project and no SHA', { subject: 'gwops-project=abc', project: projectId({}) }],
  ];
  for (const [label, info] of cases) {
    it(label, () => {
      const comment = activationComment(info);
      const parsed = parseActivationComment(comment);
      expect(parsed).toEqual({
        sha: info.sha?.slice(0, 7),
        subject: info.subject === undefined ? undefined : commentSubject(info.subject),
        author: info.author?.replace(/[()]/g, ''),
        runUrl: info.runUrl,
        dirty: info.dirty === true,
        project: info.project,
      });
      // Reading back and writing again gives the same comment.
      expect(activationComment({ ...parsed })).toBe(comment);
    });
  }

  it('a long subject comes back cut, ending with …', () => {
    const parsed = parseActivationComment(activationComment({ sha: SHA, subject: 'z'.repeat(500), author: 'Ivan' }));
    expect(parsed?.subject?.endsWith('…')).toBe(true);
    expect([...(parsed?.subject ?? '')]).toHaveLength(MAX_SUBJECT_LENGTH);
    expect(parsed?.author).toBe('Ivan');
  });

  it('is undefined for comments gwops did not write', () => {
    for (const comment of [undefined, '', 'manual change', 'gwops applying', 'Gwops apply: 3f2c9a1 x', 'gwops rollback: to configuration 7']) {
      expect(parseActivationComment(comment)).toBeUndefined();
    }
  });
});

describe('rollback comments', () => {
  it('round-trip with and without a commit', () => {
    const withCommit = rollbackComment('12', { sha: SHA, subject: 'feat(x): y (z)' });
    expect(withCommit).toBe('gwops rollback: to configuration 12 (3f2c9a1 feat(x): y (z))');
    expect(parseRollbackComment(withCommit)).toEqual({ configuration: '12', sha: '3f2c9a1', subject: 'feat(x): y (z)' });
    expect(rollbackComment('12')).toBe('gwops rollback: to configuration 12');
    expect(parseRollbackComment('gwops rollback: to configuration 12')).toEqual({ configuration: '12', sha: undefined, subject: undefined });
    expect(parseRollbackComment(rollbackComment('9', { subject: 'no sha' }))).toEqual({ configuration: '9', sha: undefined, subject: 'no sha' });
    expect(parseRollbackComment('gwops apply: 3f2c9a1 x (y)')).toBeUndefined();
  });
});

describe('the project id', () => {
  it('depends on the ownership scope only, not on the order of its kinds or filters', () => {
    const id = projectId({ mapping: ['name=@shop-', 'label==team'], 'virtual-host': ['name=@shop-'] });
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect(projectId({ 'virtual-host': ['name=@shop-'], mapping: ['label==team', 'name=@shop-'] })).toBe(id);
    expect(projectId({ mapping: ['name=@blog-'] })).not.toBe(id);
  });

  it('reads comments written before the project trailer as belonging to no project', () => {
    expect(parseActivationComment('gwops apply: 3f2c9a1 x (y)')).toMatchObject({ sha: '3f2c9a1', project: undefined, dirty: false });
    expect(parseActivationComment('gwops apply: 3f2c9a1-dirty x (y) gwops-project=0123456789ab gwops-secret-versions={}')).toMatchObject({
      sha: '3f2c9a1',
      subject: 'x',
      author: 'y',
      dirty: true,
      project: '0123456789ab',
    });
  });
});
