/**
 * The activation comment derived from the commit being applied, so the gateway's
 * configuration history points back to Git. The format is a contract that
 * `gwops history` and `gwops rollback` read back ({@link parseActivationComment}):
 *
 * ```
 * gwops apply: <sha7>[-dirty] <subject> (<author>) <run URL> gwops-project=<project id>
 * ```
 *
 * Every part after `gwops apply` is optional: without a SHA the subject follows the colon
 * directly (`gwops apply: <subject> (<author>)`), and with nothing known the comment is
 * `gwops apply`. The subject is one line (line breaks become spaces) of at most
 * {@link MAX_SUBJECT_LENGTH} characters; a longer one is cut and ends with `…`. The
 * author is the last parenthesised group; the run URL (`http://` or `https://`, no
 * spaces) comes when known. `-dirty` follows the SHA, as `git describe --dirty` writes it,
 * when the working tree held changes to tracked files: what was activated is not that
 * commit. The project trailer ({@link projectId}) comes last (before the trailer of secret
 * versions, secret-versions.ts): it tells apart the activations of several projects on one
 * gateway, so `gwops drift` finds the last one of its own project (README.md "Drift").
 * Comments written before either existed read back as before.
 *
 * `gwops rollback` writes `gwops rollback: to configuration <id>` plus
 * ` (<sha7> <subject>)` when the configuration rolled back to was applied by gwops
 * ({@link rollbackComment}, {@link parseRollbackComment}).
 */
import { sha256 } from '../crypto/digest.js';
import { withoutVersionTrailer } from './secret-versions.js';

/** What the comment is made of; every field optional. */
export interface CommitInfo {
  readonly sha?: string;
  readonly subject?: string;
  readonly author?: string;
  readonly runUrl?: string;
  /** True when the working tree held changes to tracked files: the comment marks the SHA `-dirty`. */
  readonly dirty?: boolean;
  /** The project's id ({@link projectId}), written as the comment's project trailer. */
  readonly project?: string;
}

/** Longest subject kept in a comment, in characters (code points); a longer one is cut and ends with `…`. */
export const MAX_SUBJECT_LENGTH = 100;

const APPLY_PREFIX = 'gwops apply';
const PROJECT_MARK = ' gwops-project=';
const PROJECT_TRAILER = / gwops-project=([0-9a-z-]+)$/u;

/**
 * The id of a project on a gateway: the first 12 hex digits of the SHA-256 of its
 * ownership scope (kinds and their filters, sorted). What a project owns is what tells it
 * apart from the other projects on the same gateway, and it stays the same across clones,
 * checkouts and paths; a project that changes its scope starts a new line of activations.
 * @param ownership the project file's `ownership` (kind → the API's GET filters)
 */
export function projectId(ownership: Readonly<Partial<Record<string, readonly string[]>>>): string {
  const canonical = Object.keys(ownership)
    .sort()
    .map((kind) => [kind, [...(ownership[kind] ?? [])].sort()]);
  return sha256().update(JSON.stringify(canonical)).hex().slice(0, 12);
}
const ROLLBACK_PREFIX = 'gwops rollback: to configuration ';

/** The subject as a comment holds it: one line, trimmed, at most {@link MAX_SUBJECT_LENGTH} characters. */
export function commentSubject(subject: string): string {
  const line = subject.replace(/[\r\n]+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= MAX_SUBJECT_LENGTH ? line : chars.slice(0, MAX_SUBJECT_LENGTH - 1).join('').trimEnd() + '…';
}

/** The author as a comment holds it: one line, without parentheses (they delimit it). */
function commentAuthor(author: string): string {
  return author.replace(/[\r\n]+/g, ' ').replace(/[()]/g, '').trim();
}

/** Formats the activation comment; `gwops apply` when nothing is known. */
export function activationComment(info: CommitInfo): string {
  let comment = APPLY_PREFIX;
  const sha = info.sha?.slice(0, 7).toLowerCase();
  const subject = info.subject === undefined ? '' : commentSubject(info.subject);
  if (sha || subject) comment += ':';
  if (sha) comment += ` ${sha}${info.dirty === true ? '-dirty' : ''}`;
  if (subject) comment += ` ${subject}`;
  const author = info.author === undefined ? '' : commentAuthor(info.author);
  if (author) comment += ` (${author})`;
  if (info.runUrl) comment += ` ${info.runUrl}`;
  if (info.project !== undefined && PROJECT_TRAILER.test(`${PROJECT_MARK}${info.project}`)) comment += `${PROJECT_MARK}${info.project}`;
  return comment;
}

/**
 * `comment` (a comment of the user's own, `apply --comment`) with the project trailer of
 * `project` ({@link projectId}), so the activation counts as this project's; unchanged when
 * it has one already.
 */
export function withProjectTrailer(comment: string, project: string): string {
  return commentProject(comment) !== undefined ? comment : `${comment}${PROJECT_MARK}${project}`;
}

/** The project id of any comment's project trailer (before the trailer of secret versions); undefined when it has none. */
export function commentProject(comment: string | undefined): string | undefined {
  return comment === undefined ? undefined : PROJECT_TRAILER.exec(withoutVersionTrailer(comment))?.[1];
}

/** What {@link parseActivationComment} reads out of a comment `gwops apply` wrote. */
export interface ActivationCommentInfo {
  /** The commit's short SHA (7 lowercase hex digits), when the comment names one. */
  readonly sha: string | undefined;
  /** The commit's subject as the comment holds it (possibly cut, ending with `…`). */
  readonly subject: string | undefined;
  readonly author: string | undefined;
  readonly runUrl: string | undefined;
  /** True when the SHA is marked `-dirty`: the activated state was not that commit. */
  readonly dirty: boolean;
  /** The project id of the comment's project trailer ({@link projectId}); undefined in comments without one. */
  readonly project: string | undefined;
}

const APPLY_BODY = /^(?: ([0-9a-f]{7})(-dirty)?(?= |$))?(.*?)(?: \(([^()]*)\))?(?: (https?:\/\/\S+))?$/u;

/**
 * Reads back a comment written by {@link activationComment}: the short SHA, the subject,
 * the author (the last parenthesised group) and the run URL. Ambiguities the format
 * leaves, resolved as the formatter writes: a subject that ends with a parenthesised
 * group and has no author after it is read as subject plus author, and a comment without
 * a SHA whose subject starts with a 7-hex-digit word is read as having that SHA (gwops
 * writes both the SHA and the author whenever it read the subject from Git).
 * @returns undefined when the comment is not one that `gwops apply` writes
 */
export function parseActivationComment(comment: string | undefined): ActivationCommentInfo | undefined {
  if (comment === undefined || !comment.startsWith(APPLY_PREFIX)) return undefined;
  // The trailer of applied secret versions (secret-versions.ts) is not part of the commit.
  let rest = withoutVersionTrailer(comment).slice(APPLY_PREFIX.length);
  const project = PROJECT_TRAILER.exec(rest)?.[1];
  if (project !== undefined) rest = rest.slice(0, rest.length - PROJECT_MARK.length - project.length);
  if (rest.startsWith(':')) rest = rest.slice(1);
  if (rest !== '' && !rest.startsWith(' ')) return undefined;
  const match = APPLY_BODY.exec(rest);
  if (!match) return undefined;
  const [, sha, dirty, subject, author, runUrl] = match;
  return {
    sha: sha || undefined,
    subject: subject?.trim() || undefined,
    author: author?.trim() || undefined,
    runUrl: runUrl || undefined,
    dirty: dirty !== undefined,
    project,
  };
}

/** The configuration a rollback went back to, and its commit when gwops applied it. */
export interface RollbackCommentInfo {
  readonly configuration: string;
  readonly sha: string | undefined;
  readonly subject: string | undefined;
}

/** `gwops rollback: to configuration <id>`, plus ` (<sha7> <subject>)` when known. */
export function rollbackComment(configuration: string, commit?: { readonly sha?: string | undefined; readonly subject?: string | undefined }): string {
  const inner = [commit?.sha?.slice(0, 7), commit?.subject === undefined ? undefined : commentSubject(commit.subject)].filter((p) => p).join(' ');
  return `${ROLLBACK_PREFIX}${configuration}${inner ? ` (${inner})` : ''}`;
}

/** Reads back a comment written by {@link rollbackComment}. @returns undefined for any other comment */
export function parseRollbackComment(comment: string | undefined): RollbackCommentInfo | undefined {
  if (comment === undefined || !comment.startsWith(ROLLBACK_PREFIX)) return undefined;
  const match = /^(\S+)(?: \((.*)\))?$/u.exec(withoutVersionTrailer(comment).slice(ROLLBACK_PREFIX.length));
  if (!match) return undefined;
  const [, configuration = '', inner = ''] = match;
  const commit = /^([0-9a-f]{7})(?: (.*))?$/u.exec(inner);
  const subject = (commit ? commit[2] : inner)?.trim();
  return { configuration, sha: commit?.[1], subject: subject || undefined };
}
