/**
 * The consent rule of every command that changes a gateway (`apply`, `rollback`; README
 * "Exit codes"): `--yes`, or "yes" typed where a question can be asked and answered.
 */
import { createInterface } from 'node:readline';
import { ConsentRequiredError } from '../engine/errors.js';
import type { CliIO } from './io.js';

/**
 * Asks `question` on stderr and reads one line from stdin. End of input (Ctrl+D) is no
 * answer: undefined. Rejects when `signal` aborts.
 */
export async function ask(io: CliIO, question: string, signal: AbortSignal): Promise<string | undefined> {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream, terminal: false });
  try {
    return await new Promise<string | undefined>((resolveAnswer, reject) => {
      // The callback form answers within the 'line' event, before a 'close' that the same input's end may bring.
      rl.question(question, { signal }, resolveAnswer);
      rl.once('close', () => resolveAnswer(undefined));
      signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
    });
  } finally {
    rl.close();
  }
}

/**
 * The consent rule of every command that changes a gateway: `--yes` gives it; otherwise
 * it is asked for when a question can be asked and answered on a terminal (stdin and
 * stderr), and only "yes" gives it. With no terminal and no `--yes` the command stops
 * before any write call (`CI=true` does not imply consent).
 * @param what the end of the refusal message, e.g. `re-run with --yes to apply these changes`
 * @returns true when consent was given
 * @throws ConsentRequiredError when it cannot be asked for
 */
export async function consent(
  io: CliIO,
  yes: boolean | undefined,
  question: string,
  signal: AbortSignal,
  what = 're-run with --yes to apply these changes',
): Promise<boolean> {
  if (yes) return true;
  if (!io.canPrompt) {
    throw new ConsentRequiredError(`no terminal to ask for approval and --yes not given: nothing was changed; ${what}`);
  }
  const answer = await ask(io, question, signal);
  return answer?.trim() === 'yes';
}
