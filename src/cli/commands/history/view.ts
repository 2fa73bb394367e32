/**
 * The view of `gwops history`, chosen once from `--format`: a table of the configurations
 * (text), or one JSON document (`configurations`, each as {@link historyJson}).
 */
import { jsonDocument } from '../../../core/json-document.js';
import type { HistoryEntry } from '../../../operations/history.js';
import { renderTable } from '../../../render/table.js';
import type { CliIO } from '../../io.js';

/** Version of the document of `history --format json` (src/core/json-document.ts). */
export const HISTORY_FORMAT_VERSION = '1.0';

/** The view of `gwops history`. */
export interface HistoryView {
  /** The configurations, newest first. */
  configurations(entries: readonly HistoryEntry[]): void;
}

/** A comment on one line: control characters (a line break from another client) become spaces. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

/** One entry as `gwops history --format json` (and the rollback preview) shows it. */
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
        ? { sha: commit.sha ?? null, subject: commit.subject ?? null, ...(entry.apply ? { author: entry.apply.author ?? null, runUrl: entry.apply.runUrl ?? null, dirty: entry.apply.dirty } : {}) }
        : null,
    rollbackTo: entry.rollback?.configuration ?? null,
  };
}

/** The history as a table: id, type, time, user, commit, comment. */
export function historyText(entries: readonly HistoryEntry[]): string {
  const rows = entries.map((e) => [e.id, e.configType ?? '', e.createdAt ?? '', e.createdBy ?? '', e.apply?.sha !== undefined && e.apply.dirty ? `${e.apply.sha}-dirty` : ((e.apply ?? e.rollback)?.sha ?? ''), oneLine(e.comment ?? '')]);
  return renderTable([['ID', 'TYPE', 'CREATED', 'BY', 'COMMIT', 'COMMENT'], ...rows]);
}

/** The view of `gwops history` in `format`; text says on stderr when the gateway lists nothing. */
export function historyView(format: 'text' | 'json', io: CliIO): HistoryView {
  switch (format) {
    case 'json':
      return { configurations: (entries) => void io.stdout.write(jsonDocument(HISTORY_FORMAT_VERSION, { configurations: entries.map(historyJson) })) };
    case 'text':
      return {
        configurations: (entries) => void (entries.length === 0 ? io.stderr.write('The gateway lists no configurations.\n') : io.stdout.write(historyText(entries))),
      };
  }
}
