/**
 * The gateway's configuration history as gwops reads it (`gwops history`, and the target
 * of `gwops rollback`): the configurations list (docs/gateway-api.md "Configurations and
 * activation"; it works without a load), newest first, with the commit read back out of
 * the comments gwops wrote (commit-comment.ts).
 */
import type { ConfigurationEntry } from '../gateway/index.js';
import { withSession } from '../gateway/index.js';
import type { ActivationCommentInfo, RollbackCommentInfo } from '../engine/commit-comment.js';
import { parseActivationComment, parseRollbackComment } from '../engine/commit-comment.js';
import { gatewayConnection } from './steps/connect.js';
import type { GatewayInput } from './steps/connect.js';

export type { GatewayInput } from './steps/connect.js';
import { RollbackTargetError } from '../engine/errors.js';
export { gatewayConnection } from './steps/connect.js';

/** One configuration of the history, with what gwops wrote into its comment. */
export interface HistoryEntry extends ConfigurationEntry {
  /** The commit named by a comment `gwops apply` wrote. */
  readonly apply?: ActivationCommentInfo;
  /** The configuration (and its commit) named by a comment `gwops rollback` wrote. */
  readonly rollback?: RollbackCommentInfo;
}

/** The entries with their comments read (pure). Keeps the gateway's order (newest first). */
export function historyEntries(list: readonly ConfigurationEntry[]): HistoryEntry[] {
  return list.map((entry) => {
    const apply = parseActivationComment(entry.comment);
    const rollback = apply ? undefined : parseRollbackComment(entry.comment);
    return { ...entry, ...(apply ? { apply } : {}), ...(rollback ? { rollback } : {}) };
  });
}

/** The commit an entry names: applied from it, or rolled back to it. */
export function commitOf(entry: HistoryEntry): { readonly sha: string | undefined; readonly subject: string | undefined } | undefined {
  return entry.apply ?? entry.rollback;
}

/** Options of {@link runHistory}. */
export interface HistoryInput extends GatewayInput {
  /** At most this many entries (the newest). */
  readonly limit?: number | undefined;
}

/**
 * `gwops history`: opens a session, reads the configurations list (no load), terminates.
 * @returns the entries, newest first
 */
export async function runHistory(input: HistoryInput): Promise<HistoryEntry[]> {
  const { connection } = gatewayConnection(input);
  const list = await withSession({ ...connection, onWarning: input.warn }, (session) => session.configurations());
  const entries = historyEntries(list);
  return input.limit === undefined ? entries : entries.slice(0, input.limit);
}

/** One line naming an entry, for candidate lists: `<id> <sha7> <subject> (<createdAt>)`. */
export function describeHistoryEntry(entry: HistoryEntry): string {
  const commit = commitOf(entry);
  const parts = [`configuration ${entry.id}`];
  if (commit?.sha) parts.push(entry.apply?.dirty === true ? `${commit.sha}-dirty` : commit.sha);
  if (commit?.subject) parts.push(JSON.stringify(commit.subject));
  if (entry.createdAt !== undefined) parts.push(`created ${entry.createdAt}`);
  if (entry.configType !== undefined) parts.push(`[${entry.configType}]`);
  return parts.join(' ');
}

/** How many candidates an error lists at most. */
const MAX_CANDIDATES = 10;

function candidateLines(candidates: readonly HistoryEntry[]): string {
  const shown = candidates.slice(0, MAX_CANDIDATES).map((e) => `\n  ${describeHistoryEntry(e)}`);
  const more = candidates.length > MAX_CANDIDATES ? `\n  … and ${candidates.length - MAX_CANDIDATES} more` : '';
  return shown.join('') + more;
}

/**
 * The configuration that `ref` names (pure): a configuration id, else a commit: a SHA
 * prefix (at least 4 hex digits; a full SHA matches its short form) of a comment that
 * `gwops apply` wrote, the newest such configuration. A reference that is both an id and
 * a commit prefix, or a prefix of several commits, is ambiguous.
 * @throws RollbackTargetError for an unknown or ambiguous reference, listing candidates
 */
export function findRollbackTarget(entries: readonly HistoryEntry[], ref: string): HistoryEntry {
  const byId = entries.find((e) => e.id === ref);
  const lower = ref.toLowerCase();
  const applied = entries.filter((e) => e.apply?.sha !== undefined);
  const isPrefix = /^[0-9a-f]{4,40}$/.test(lower);
  const matching = isPrefix ? applied.filter((e) => (e.apply?.sha ?? '').startsWith(lower.slice(0, 7)) && (lower.length <= 7 || lower.startsWith(e.apply?.sha ?? '-'))) : [];
  const commits = [...new Set(matching.map((e) => e.apply?.sha))];
  if (byId && commits.length === 0) return byId;
  if (byId) {
    throw new RollbackTargetError(
      `'${ref}' is both a configuration id and a commit prefix; name the commit with more digits or the configuration by an id that is not a commit prefix. Candidates:` +
        candidateLines([byId, ...matching]),
      [byId, ...matching],
    );
  }
  if (commits.length > 1) {
    // One candidate per commit: the newest configuration applied from it.
    const perCommit = commits.map((sha) => matching.find((e) => e.apply?.sha === sha)).filter((e): e is HistoryEntry => e !== undefined);
    throw new RollbackTargetError(`'${ref}' is a prefix of ${commits.length} commits; give more digits. Candidates:${candidateLines(perCommit)}`, perCommit);
  }
  const [newest] = matching;
  if (newest) return newest;
  const why = isPrefix ? 'no configuration has this id, and no configuration applied by gwops names this commit' : 'no configuration has this id';
  throw new RollbackTargetError(
    `unknown configuration or commit '${ref}': ${why}.` + (applied.length > 0 ? ` Configurations applied by gwops:${candidateLines(applied)}` : ' No configuration was applied by gwops.'),
    applied,
  );
}
