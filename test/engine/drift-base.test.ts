/**
 * Finding drift's base in the configurations list (src/engine/drift-base.ts): this
 * project's newest activation by `gwops apply`, recognised by its project trailer; a
 * rollback to one of this project's configurations moves the base to that commit; another
 * project's activations, comments without a trailer, comments of one's own and `-dirty`
 * applies are never a base.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigurationEntry } from '../../src/api/documents.js';
import { activationComment, projectId, rollbackComment, withProjectTrailer } from '../../src/engine/commit-comment.js';
import { findDriftBase } from '../../src/engine/drift-base.js';

const MINE = projectId({ mapping: ['name=@shop-'] });
const THEIRS = projectId({ mapping: ['name=@blog-'] });

function entry(id: string, comment: string, configType = 'PREVIOUSLY_ACTIVE'): ConfigurationEntry {
  return { id, configType, comment, createdAt: `2026-12-0${id}T10:00:00Z`, createdBy: 'ci' };
}

describe('findDriftBase', () => {
  it("takes this project's newest apply, past other projects' and hand-made activations", () => {
    const list = [
      entry('5', 'hotfix by hand', 'CURRENTLY_ACTIVE'),
      entry('4', activationComment({ sha: 'bbbbbbb', subject: 'blog', project: THEIRS })),
      entry('3', activationComment({ sha: 'aaaaaaa', subject: 'shop', project: MINE })),
      entry('2', activationComment({ sha: '1111111', subject: 'older shop', project: MINE })),
    ];
    expect(findDriftBase(list, MINE)).toEqual({ found: { sha: 'aaaaaaa', configuration: '3', createdAt: '2026-12-03T10:00:00Z', createdBy: 'ci' } });
    expect(findDriftBase(list, THEIRS)).toMatchObject({ found: { sha: 'bbbbbbb', configuration: '4' } });
  });

  it('reads no project into a comment written before the trailer, and says so', () => {
    expect(findDriftBase([entry('1', 'gwops apply: 1234567 old (A)', 'CURRENTLY_ACTIVE')], MINE)).toEqual({
      unavailable: "the gateway's configuration history holds no activation of this project by gwops apply",
    });
  });

  it('is no base when the last apply was made from uncommitted changes or with a comment of its own', () => {
    const dirty = [entry('2', activationComment({ sha: 'aaaaaaa', dirty: true, project: MINE })), entry('1', activationComment({ sha: '1111111', project: MINE }))];
    expect(findDriftBase(dirty, MINE)).toEqual({ unavailable: expect.stringMatching(/configuration 2\) was made from uncommitted changes \(aaaaaaa-dirty\)/) as unknown });
    const own = [entry('2', withProjectTrailer('emergency change', MINE)), entry('1', activationComment({ sha: '1111111', project: MINE }))];
    expect(findDriftBase(own, MINE)).toEqual({ unavailable: 'the last activation of this project (configuration 2) names no commit' });
  });

  it("follows a rollback to this project's configuration, and passes over a rollback to another's", () => {
    const list = [
      entry('6', rollbackComment('4'), 'CURRENTLY_ACTIVE'),
      entry('5', rollbackComment('2')),
      entry('4', activationComment({ sha: 'bbbbbbb', project: THEIRS })),
      entry('3', activationComment({ sha: 'ccccccc', project: MINE })),
      entry('2', activationComment({ sha: 'aaaaaaa', project: MINE })),
    ];
    expect(findDriftBase(list, MINE)).toMatchObject({ found: { sha: 'aaaaaaa', configuration: '5' } });
  });

  it('never counts a saved or the initial configuration', () => {
    const list = [entry('2', activationComment({ sha: 'aaaaaaa', project: MINE }), 'SAVED'), entry('1', activationComment({ sha: '1111111', project: MINE }), 'INITIAL')];
    expect(findDriftBase(list, MINE)).toMatchObject({ unavailable: expect.any(String) as unknown });
  });
});
