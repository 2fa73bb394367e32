/**
 * The backlog that writes a plan's text while the calls wait (src/cli/backlog.ts): over
 * every sequence of slices and finishes, what it writes is the pieces joined, in order,
 * each write whole pieces only (a secret is redacted per write: a piece is never split),
 * nothing taken before it is asked for, and nothing more once finished.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writingBacklog } from '../../src/cli/backlog.js';

/** Pieces: mostly short lines, some empty, now and then one past the 64 KiB a write gathers. */
const pieces = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.integer({ min: 30_000, max: 70_000 }).map((n) => 'x'.repeat(n)) },
  ),
  { maxLength: 60 },
);

/** What a test does with the backlog: a slice of `budgetMs`, or finish. */
const operations = fc.array(fc.oneof(fc.double({ min: 0, max: 0.05, noNaN: true }).map((budgetMs) => ({ budgetMs })), fc.constant('finish' as const)), { maxLength: 12 });

describe('writingBacklog', () => {
  it('writes the pieces joined, in order, in whole pieces, taking each only when asked, and all of them once finished', () => {
    fc.assert(
      fc.property(pieces, operations, (given, ops) => {
        let taken = 0;
        const source = function* (): Generator<string> {
          for (const piece of given) {
            taken += 1;
            yield piece;
          }
        };
        const writes: string[] = [];
        const backlog = writingBacklog(source(), { write: (text: string) => writes.push(text) });
        expect(taken).toBe(0);
        for (const op of ops) {
          const before = taken;
          if (op === 'finish') backlog.finish();
          else backlog.run(op.budgetMs);
          // A slice takes at least one piece while any is left; finish takes them all.
          expect(taken > before || before === given.length).toBe(true);
          expect(op !== 'finish' || taken === given.length).toBe(true);
        }
        backlog.finish();
        expect(taken).toBe(given.length);
        const count = writes.length;
        backlog.finish();
        backlog.run(1);
        expect(writes.length).toBe(count);
        expect(writes.join('')).toBe(given.join(''));
        // Every write ends where a piece ends.
        const pieceEnds = new Set<number>();
        let at = 0;
        for (const piece of given) pieceEnds.add((at += piece.length));
        let written = 0;
        for (const text of writes) {
          written += text.length;
          expect(pieceEnds.has(written)).toBe(true);
        }
      }),
    );
  });

  it('writes nothing before a slice or finish, and gathers short pieces into one write', () => {
    const writes: string[] = [];
    const backlog = writingBacklog(['a\n', 'b\n', 'c\n'], { write: (text: string) => writes.push(text) });
    expect(writes).toEqual([]);
    backlog.finish();
    expect(writes).toEqual(['a\nb\nc\n']);
  });
});
