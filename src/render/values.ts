/**
 * Value and change formatting shared by the text and markdown renderers (one structured
 * diff, many renderers: the Plan is the model, these are views of it). Pure: returns
 * strings and rows, never prints.
 *
 * Values arrive already masked (plan-types.ts): a sensitive change holds
 * `SENSITIVE_MASK` where a secret was, and is printed unquoted as `(sensitive value)`.
 */
import { diffLines } from 'diff';
import { escapeInvisible } from '../core/display.js';
import type { ObjectRef } from '../engine/model.js';
import type { AttributeChange, ContentChange, PlanSummary } from '../engine/plan-types.js';
import { SENSITIVE_MASK } from '../engine/plan-types.js';
import type { ResourceType } from '../kinds/index.js';
import { certificateAttributes } from '../schema/index.js';
import { describeCertificates } from './certificate.js';

/** What one rendered row means: added, removed, changed in place, or context. */
export type Sign = '+' | '-' | '~' | ' ';

/** One rendered row of a change (the renderer adds the sign column and indentation). */
export interface Row {
  readonly sign: Sign;
  readonly text: string;
}

/** The sentence of an empty plan. */
export const NO_CHANGES = 'No changes. The live gateway matches the manifests.';

/** Longest single-line rendering of an object or array before it is spread over lines. */
const INLINE_LIMIT = 72;

/** `kind "name"`, the way objects are named in every renderer; invisible characters of the name escaped (src/core/display.ts). */
export function objectTitle(ref: Pick<ObjectRef, 'name'> & { readonly kind: string }): string {
  return `${ref.kind} ${escapeInvisible(JSON.stringify(ref.name))}`;
}

/** `Plan: N to create, N to update, N to delete, N links to change.` */
export function summaryLine(summary: PlanSummary): string {
  const links = summary.link + summary.unlink;
  return `Plan: ${summary.create} to create, ${summary.update} to update, ${summary.delete} to delete, ${links} link${links === 1 ? '' : 's'} to change.`;
}

/**
 * A value shown by its description instead of itself (a certificate by subject, SANs,
 * validity and fingerprint): the lines are printed unquoted, the first after `=`.
 */
export class DescribedValue {
  constructor(readonly lines: readonly string[]) {}
}

/** How values are shown: `full` shows certificates as their PEM (`--verbose`). */
export interface ValueOptions {
  readonly full?: boolean;
}

/**
 * A value as it is shown: the value of an attribute that the kind's schema marks as
 * holding certificates (`x-gwops-certificate`) as a {@link DescribedValue}, unless
 * `options.full` or it is no parsable PEM certificate; any other value as it is.
 * @param path dotted attribute path, as a plan names it
 */
export function shownValue(kind: ResourceType, path: string, value: unknown, options: ValueOptions = {}): unknown {
  if (options.full === true || value === undefined || !certificateAttributes(kind).has(path)) return value;
  const lines = describeCertificates(value);
  return lines ? new DescribedValue(lines) : value;
}

/** The change with its values as shown ({@link shownValue}); a side that is absent stays absent. */
export function shownChange(kind: ResourceType, change: AttributeChange, options: ValueOptions = {}): AttributeChange {
  // Shown as it is unless it holds certificates to describe (no copy per change of a large plan).
  if (options.full === true || !certificateAttributes(kind).has(change.path)) return change;
  return {
    ...change,
    ...('before' in change ? { before: shownValue(kind, change.path, change.before, options) } : {}),
    ...('after' in change ? { after: shownValue(kind, change.path, change.after, options) } : {}),
  };
}

function isMultiline(value: unknown): value is string {
  return typeof value === 'string' && value.includes('\n') && value !== SENSITIVE_MASK;
}

/**
 * One value as text lines: strings quoted (JSON), the mask unquoted when `sensitive`,
 * short objects and arrays inline, long ones as indented JSON over several lines.
 * Multi-line strings are not handled here (see {@link changeRows}).
 */
export function formatValue(value: unknown, sensitive: boolean): string[] {
  // A sensitive string is a mask or a description that stands for the value (a public key's kid and thumbprint).
  if (sensitive && typeof value === 'string') return [value];
  if (value instanceof DescribedValue) return [...value.lines];
  if (value === undefined) return ['(absent)'];
  const inline = JSON.stringify(value);
  if (typeof value !== 'object' || value === null || inline.length <= INLINE_LIMIT) return [inline];
  return JSON.stringify(value, null, 2).split('\n');
}

/** Invisible characters (other than tab and newline) shown as `\uXXXX`, so a live value cannot drive the terminal. */
function visible(text: string): string {
  return text
    .split('\n')
    .map((line) => escapeInvisible(line, true))
    .join('\n');
}

function heredocLines(text: string): string[] {
  const lines = visible(text).split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The rows of one attribute change.
 * - `style: 'text'` (Terraform): `path = value` with sign `+` on create, `~ path = a -> b`
 *   in place, multi-line strings as a `<<-EOT` heredoc with a line diff inside.
 * - `style: 'diff'` (a markdown ```diff block, which has no `~`): a change of a one-line
 *   value is a `-` row with the old value and a `+` row with the new one; multi-line
 *   values get the same line diff as in text.
 * @param width the path column width (paths are padded to align `=`; continuation lines
 *   of long values are indented by 4 instead, so one long path cannot push them right)
 */
export function changeRows(change: AttributeChange, width: number, style: 'text' | 'diff'): Row[] {
  const path = change.path.padEnd(width);
  const hasBefore = 'before' in change;
  const hasAfter = 'after' in change;
  const rows: Row[] = [];
  const valueRows = (sign: Sign, value: unknown): Row[] => {
    if (isMultiline(value)) {
      return [
        { sign, text: `${path} = <<-EOT` },
        ...heredocLines(value).map((line): Row => ({ sign: style === 'diff' ? sign : ' ', text: `    ${line}` })),
        { sign: style === 'diff' ? sign : ' ', text: '  EOT' },
      ];
    }
    const [first = '', ...rest] = formatValue(value, change.sensitive);
    return [{ sign, text: `${path} = ${first}` }, ...rest.map((line): Row => ({ sign: style === 'diff' ? sign : ' ', text: `    ${line}` }))];
  };
  if (!hasBefore) return valueRows('+', change.after);
  if (!hasAfter) return valueRows('-', change.before);
  const before = formatValue(change.before, change.sensitive);
  const after = formatValue(change.after, change.sensitive);
  if (before.length === 1 && after.length === 1 && !isMultiline(change.before) && !isMultiline(change.after)) {
    if (style === 'diff') return [...valueRows('-', change.before), ...valueRows('+', change.after)];
    return [{ sign: '~', text: `${path} = ${before[0] ?? ''} -> ${after[0] ?? ''}` }];
  }
  // multi-line strings as a heredoc, long objects and arrays as indented JSON: a line diff inside
  const asText = (value: unknown): string =>
    typeof value === 'string' ? value : value instanceof DescribedValue ? `${value.lines.join('\n')}\n` : `${JSON.stringify(value, null, 2)}\n`;
  const heredoc = isMultiline(change.before) || isMultiline(change.after);
  rows.push({ sign: style === 'diff' ? ' ' : '~', text: `${path} = ${heredoc ? '<<-EOT' : ''}`.trimEnd() });
  for (const part of diffLines(asText(change.before), asText(change.after))) {
    const sign: Sign = part.added ? '+' : part.removed ? '-' : ' ';
    for (const line of heredocLines(part.value)) rows.push({ sign, text: `    ${line}` });
  }
  if (heredoc) rows.push({ sign: ' ', text: '  EOT' });
  return rows;
}


/** Width of the path column of a block of changes. */
export function pathWidth(changes: readonly AttributeChange[]): number {
  return changes.reduce((w, c) => Math.max(w, c.path.length), 0);
}

/** `N unchanged attribute(s) hidden`. */
export function unchangedNote(count: number): string {
  return `(${count} unchanged attribute${count === 1 ? '' : 's'} hidden)`;
}

/** A content digest as a plan shows it: `sha256:` and the first 16 hex digits. */
function shortDigest(digest: string): string {
  return digest.length > 23 ? `${digest.slice(0, 23)}…` : digest;
}

/**
 * The rows of a document's content change (docs/manifest-reference.md "Document content"):
 * the digests, then the unified diff of the text line by line (invisible characters
 * escaped), or a note when the content is not text or the diff was cut.
 */
export function contentRows(content: ContentChange): Row[] {
  const size = `${content.bytes} byte${content.bytes === 1 ? '' : 's'}`;
  const rows: Row[] =
    content.before === undefined
      ? [{ sign: '+', text: `content = ${shortDigest(content.after)} (${size})` }]
      : [{ sign: '~', text: `content: ${shortDigest(content.before)} → ${shortDigest(content.after)} (${size})` }];
  if (content.binary === true) rows.push({ sign: ' ', text: '  # not UTF-8 text: compared by SHA-256 digest only' });
  if (content.tooManyChanges === true) rows.push({ sign: ' ', text: '  # too many lines changed to show a diff: compared by SHA-256 digest only' });
  for (const line of content.diff === undefined || content.diff === '' ? [] : content.diff.split('\n')) {
    const first = line[0];
    const sign: Sign = first === '+' ? '+' : first === '-' ? '-' : ' ';
    rows.push({ sign, text: `    ${escapeInvisible(sign === ' ' && first === ' ' ? line.slice(1) : sign === ' ' ? line : line.slice(1))}` });
  }
  if (content.omittedLines !== undefined) rows.push({ sign: ' ', text: `  # ${content.omittedLines} more line${content.omittedLines === 1 ? '' : 's'} of the diff not shown` });
  return rows;
}
