/**
 * Text written a slice at a time while an apply's calls wait for the gateway's answers
 * (src/operations/steps/execute.ts `Backlog`): `apply --yes` with its output going to a
 * file or a pipe has nobody to show the plan to before it starts, so the text of a plan
 * of 100,000 new objects (about 0.7 s to make) need not hold back its first call. What
 * stdout holds at the end is the same text, in the same order, as when it is printed first.
 */
import type { Backlog } from '../operations/steps/execute.js';
import { CHUNK_SIZE } from '../render/index.js';
import type { TextSink } from './io.js';

/**
 * A {@link Backlog} that takes `pieces` (each made when it is taken, as a generator makes
 * them) and writes them to `sink` in order, joined into writes of about the renderers'
 * {@link CHUNK_SIZE}; a piece is never split. `finish` may be called more than once.
 */
export function writingBacklog(pieces: Iterable<string>, sink: TextSink): Backlog {
  const iterator = pieces[Symbol.iterator]();
  let done = false;
  let gathered: string[] = [];
  let length = 0;
  const write = (): void => {
    if (gathered.length === 0) return;
    const text = gathered.join('');
    gathered = [];
    length = 0;
    sink.write(text);
  };
  /** Takes one piece; false when there is none left (all is then written). */
  const take = (): boolean => {
    if (done) return false;
    const next = iterator.next();
    if (next.done === true) {
      done = true;
      write();
      return false;
    }
    gathered.push(next.value);
    length += next.value.length;
    if (length >= CHUNK_SIZE) write();
    return true;
  };
  return {
    run(budgetMs) {
      const until = performance.now() + budgetMs;
      while (take() && performance.now() < until);
    },
    finish() {
      while (take());
    },
  };
}
