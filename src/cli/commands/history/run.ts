/**
 * `gwops history`: the gateway's configurations, newest first, with the commit read out
 * of the comments gwops wrote (src/engine/commit-comment.ts). Read-only: one session,
 * the configurations list (no load), terminate.
 */
import { UsageError } from '../../../core/errors.js';
import { runHistory } from '../../../operations/history.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { ConnectionFlags } from '../../connection-flags.js';
import { gatewayInput } from '../../connection-flags.js';
import type { CliIO } from '../../io.js';
import { historyView } from './view.js';

/** Flags of `gwops history`. */
export interface HistoryFlags extends ConnectionFlags {
  limit?: string;
  format: 'text' | 'json';
}

/** `--limit`: a positive integer. @throws UsageError */
function limitOption(text: string): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--limit ${text}: give a whole number of at least 1`);
  return n;
}

/** `gwops history`. @returns the exit code */
export async function historyAction(flags: HistoryFlags, io: CliIO): Promise<number> {
  const limit = flags.limit === undefined ? undefined : limitOption(flags.limit);
  const entries = await runHistory({ ...gatewayInput(flags, io), limit });
  historyView(flags.format, io).configurations(entries);
  return EXIT.ok;
}
