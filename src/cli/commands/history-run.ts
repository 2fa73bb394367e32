/**
 * `gwops history`: the gateway's configurations, newest first, with the commit read out
 * of the comments gwops wrote (src/engine/commit-comment.ts). Read-only: one session,
 * the configurations list (no load), terminate.
 */
import { UsageError } from '../../errors.js';
import type { HistoryEntry } from '../../operations/history.js';
import { runHistory } from '../../operations/history.js';
import { EXIT } from '../../exit-codes.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import type { CliIO } from '../io.js';

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

/** A comment on one line: control characters (a line break from another client) become spaces. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/** Aligned columns, two spaces apart; the last column is not padded. */
function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd()).join('\n') + '\n';
}

/** One entry as `gwops history --format json` shows it. */
export function historyJson(entry: HistoryEntry): Record<string, unknown> {
  const commit = entry.apply ?? entry.rollback;
  return {
    id: entry.id,
    configType: entry.configType ?? null,
    createdAt: entry.createdAt ?? null,
    createdBy: entry.createdBy ?? null,
    comment: entry.comment ?? null,
    writtenBy: entry.apply ? 'gwops apply' : entry.rollback ? 'gwops rollback' : null,
    commit:
      commit && (commit.sha !== undefined || commit.subject !== undefined)
        ? { sha: commit.sha ?? null, subject: commit.subject ?? null, ...(entry.apply ? { author: entry.apply.author ?? null, runUrl: entry.apply.runUrl ?? null } : {}) }
        : null,
    rollbackTo: entry.rollback?.configuration ?? null,
  };
}

/** The history as a table: id, type, time, user, commit, comment. */
export function historyText(entries: readonly HistoryEntry[]): string {
  const rows = entries.map((e) => [e.id, e.configType ?? '', e.createdAt ?? '', e.createdBy ?? '', (e.apply ?? e.rollback)?.sha ?? '', oneLine(e.comment ?? '')]);
  return table([['ID', 'TYPE', 'CREATED', 'BY', 'COMMIT', 'COMMENT'], ...rows]);
}

/** `gwops history`. @returns the exit code */
export async function historyAction(flags: HistoryFlags, io: CliIO): Promise<number> {
  const limit = flags.limit === undefined ? undefined : limitOption(flags.limit);
  const entries = await runHistory({ ...gatewayInput(flags, io), limit });
  if (flags.format === 'json') {
    io.stdout.write(JSON.stringify({ configurations: entries.map(historyJson) }, null, 2) + '\n');
  } else if (entries.length === 0) {
    io.stderr.write('The gateway lists no configurations.\n');
  } else {
    io.stdout.write(historyText(entries));
  }
  return EXIT.ok;
}
