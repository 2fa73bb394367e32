/**
 * The version trailer of activation comments: written and read back (property test), the
 * comment's own text unchanged by it, the newest entry with a trailer wins, and neither
 * `gwops history`'s parser nor a foreign comment is confused by it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { parseActivationComment, parseRollbackComment, rollbackComment } from '../../src/engine/commit-comment.js';
import {
  appliedVersions,
  mergeVersions,
  parseVersionTrailer,
  rollbackCommentWithVersions,
  withVersionTrailer,
  withoutVersionTrailer,
} from '../../src/engine/secret-versions.js';

const name = fc.string({ minLength: 1, maxLength: 12 });
const versions = fc.dictionary(
  fc.constantFrom(...KINDS.map((k) => k.type)),
  fc.dictionary(name, fc.dictionary(fc.constantFrom('passphrase', 'privateKey', 'externalAccountBinding.hmacKey'), fc.nat(), { minKeys: 1 }), { minKeys: 1 }),
  { minKeys: 1 },
);

describe('secret version trailer', () => {
  it('reads back what it wrote and leaves the comment as it was', () => {
    fc.assert(
      fc.property(fc.string(), versions, (comment, v) => {
        const written = withVersionTrailer(comment, v);
        expect(parseVersionTrailer(written)).toEqual(v);
        expect(withoutVersionTrailer(written)).toBe(withoutVersionTrailer(comment));
      }),
    );
  });

  it('keeps gwops history able to read the commit', () => {
    const comment = withVersionTrailer('gwops apply: 1a2b3c4 Rotate (Ann) https://ci.example/run/1', { 'ssl-certificate': { tls: { passphrase: 3 } } });
    expect(parseActivationComment(comment)).toEqual({ sha: '1a2b3c4', subject: 'Rotate', author: 'Ann', runUrl: 'https://ci.example/run/1', dirty: false, project: undefined });
  });

  it('takes the newest entry that has a trailer, and merges declared versions over recorded ones', () => {
    const at = { createdAt: undefined, createdBy: undefined };
    const entries = [
      { id: '3', configType: 'CURRENTLY_ACTIVE', comment: 'manual change', ...at },
      { id: '2', configType: 'SAVED', comment: withVersionTrailer('gwops apply', { 'ssl-certificate': { tls: { passphrase: 2 } } }), ...at },
      { id: '1', configType: 'SAVED', comment: withVersionTrailer('gwops apply', { 'ssl-certificate': { tls: { passphrase: 1 } } }), ...at },
    ];
    const applied = appliedVersions(entries);
    expect(applied).toEqual({ 'ssl-certificate': { tls: { passphrase: 2 } } });
    expect(mergeVersions(applied, { 'ssl-certificate': { tls: { privateKey: 1 } } })).toEqual({ 'ssl-certificate': { tls: { passphrase: 2, privateKey: 1 } } });
    expect(parseVersionTrailer('gwops-secret-versions={not json}')).toBeUndefined();
    expect(withVersionTrailer('as it is', {})).toBe('as it is');
  });

  it('a rollback carries the versions in effect at its target, even none', () => {
    const at = { createdAt: undefined, createdBy: undefined, configType: 'SAVED' };
    const entries = [
      { id: '4', comment: withVersionTrailer('gwops apply', { 'ssl-certificate': { tls: { passphrase: 3 } } }), ...at },
      { id: '3', comment: 'manual', ...at },
      { id: '2', comment: withVersionTrailer('gwops apply', { 'ssl-certificate': { tls: { passphrase: 2 } } }), ...at },
      { id: '1', comment: 'before gwops', ...at },
    ];
    const toThree = rollbackCommentWithVersions(rollbackComment('3'), entries, '3');
    expect(parseVersionTrailer(toThree)).toEqual({ 'ssl-certificate': { tls: { passphrase: 2 } } });
    expect(parseRollbackComment(toThree)).toEqual({ configuration: '3', sha: undefined, subject: undefined });
    expect(parseVersionTrailer(rollbackCommentWithVersions(rollbackComment('1'), entries, '1'))).toEqual({});
    expect(rollbackCommentWithVersions(rollbackComment('1'), [entries[3] as (typeof entries)[number]], '1')).toBe(rollbackComment('1'));
  });
});
