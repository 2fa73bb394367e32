/**
 * Renderers of a drift report (src/engine/drift-report.ts): text for a terminal,
 * markdown for an issue or job summary, and the versioned JSON document. Each is a pure
 * function of the report. The report speaks of what was found on the gateway ("changed
 * outside gwops"), never of what gwops would do.
 */
import { createColors } from 'picocolors';
import type { DriftActivation, DriftAttribution } from '../engine/drift-attribution.js';
import type { DriftDirection, DriftEntry, DriftReport, IgnoredDriftEntry } from '../engine/drift-report.js';
import { DRIFT_DIRECTIONS, DRIFT_FORMAT_VERSION, driftedObjects, entriesByObject } from '../engine/drift-report.js';
import { escapeInvisible } from '../core/display.js';
import type { DriftSide } from '../engine/drift-base.js';
import { DRIFT_SIDES } from '../engine/drift-base.js';
import { jsonDocument } from '../core/json-document.js';
import { codeCell, codeSpan } from './markdown-text.js';
import { fenced, pictureMarkdown } from './markdown.js';
import { MERMAID_DRIFT_LEGEND } from './mermaid.js';
import type { Topology } from './topology.js';
import type { AttributeChange } from '../engine/plan-types.js';
import type { Row, ValueOptions } from './values.js';
import { DescribedValue, changeRows, objectTitle, shownValue } from './values.js';

/** The hidden marker that starts every markdown drift report (CI finds its issue comment by it). */
export const DRIFT_MARKDOWN_MARKER = '<!-- gwops-drift -->';

/** The sentence of a report without drift. */
export const NO_DRIFT = 'No drift: the live gateway matches the manifests.';

/** The heading of each direction. */
export const DIRECTION_HEADINGS: Readonly<Record<DriftDirection, string>> = {
  changed: 'Changed on the gateway',
  deleted: 'Deleted on the gateway',
  added: 'Added on the gateway',
  'link-added': 'Links added on the gateway',
  'link-deleted': 'Links deleted on the gateway',
};

/** Where a group of entries was changed: a side (drift-base.ts), or a key source (key-rotation.ts). */
type EntrySide = NonNullable<DriftEntry['side']>;

/** The heading of each side (drift-base.ts), when the report has a base, and of key rotations, with a base or without. */
export const SIDE_HEADINGS: Readonly<Record<EntrySide, string>> = {
  gateway: 'Changed on the gateway since the last apply',
  both: 'Changed on both sides since the last apply (conflicts: Git and the gateway each changed)',
  git: 'Changed in Git, not applied yet (the gateway still holds what was last applied)',
  'key-source': 'Rotated at the key source, not applied yet (the gateway still holds an earlier key the source still publishes)',
};

/** The heading of each direction of a key rotation (only `changed` occurs). */
const KEY_SOURCE_DIRECTION_HEADINGS: Readonly<Record<DriftDirection, string>> = {
  changed: 'New key at the key source',
  deleted: 'Declared in Git, not on the gateway yet',
  added: 'Removed from Git, still on the gateway',
  'link-added': 'Links removed in Git, still on the gateway',
  'link-deleted': 'Links declared in Git, not on the gateway yet',
};

/** The heading of each direction of Git's side: what Git changed that the gateway does not hold yet. */
const GIT_DIRECTION_HEADINGS: Readonly<Record<DriftDirection, string>> = {
  changed: 'Changed in Git',
  deleted: 'Declared in Git, not on the gateway yet',
  added: 'Removed from Git, still on the gateway',
  'link-added': 'Links removed in Git, still on the gateway',
  'link-deleted': 'Links declared in Git, not on the gateway yet',
};

/** The heading of each direction of a conflict: what the gateway did, to what Git changed too. */
const BOTH_DIRECTION_HEADINGS: Readonly<Record<DriftDirection, string>> = {
  changed: 'Changed on the gateway and in Git',
  deleted: 'Deleted on the gateway, changed in Git',
  added: 'Added on the gateway and in Git',
  'link-added': 'Links changed on the gateway and in Git',
  'link-deleted': 'Links changed on the gateway and in Git',
};

/** The direction headings under a side's heading (no side: the report without a base, told from the gateway). */
function headingsOf(side: EntrySide | undefined): Readonly<Record<DriftDirection, string>> {
  return side === 'git' ? GIT_DIRECTION_HEADINGS : side === 'both' ? BOTH_DIRECTION_HEADINGS : side === 'key-source' ? KEY_SOURCE_DIRECTION_HEADINGS : DIRECTION_HEADINGS;
}

/** The entries in groups: one per side when the report has a base, else one group without a side; key rotations last, in a group of their own. */
function sideGroups(report: DriftReport): { readonly side: EntrySide | undefined; readonly entries: readonly DriftEntry[] }[] {
  const sides: readonly (EntrySide | undefined)[] = report.base === undefined ? [undefined, 'key-source'] : [...DRIFT_SIDES, 'key-source'];
  return sides.map((side) => ({ side, entries: report.entries.filter((e) => e.side === side) })).filter((g) => g.entries.length > 0);
}

/** True when every difference of a drifted report is a key rotation at a key source (key-rotation.ts). */
function onlyKeyRotations(report: DriftReport): boolean {
  return report.entries.length > 0 && report.entries.every((e) => e.side === 'key-source');
}

/** The key sources of the report's rotations, each once, as a list for a sentence. */
function keySources(report: DriftReport): string {
  return [...new Set(report.entries.flatMap((e) => (e.keySource !== undefined ? [e.keySource] : [])))].map((s) => JSON.stringify(s)).join(', ');
}

/** The report's non-empty sections in order: per side (when it has a base), per direction. */
function driftSections(report: DriftReport): { side: EntrySide | undefined; direction: DriftDirection; entries: DriftEntry[]; firstOfSide: boolean }[] {
  return sideGroups(report).flatMap((group) =>
    DRIFT_DIRECTIONS.map((direction) => ({ side: group.side, direction, entries: group.entries.filter((e) => e.direction === direction) }))
      .filter((section) => section.entries.length > 0)
      .map((section, i) => ({ ...section, firstOfSide: i === 0 })),
  );
}

/**
 * One line saying what the report compared: against which base, or why there is none.
 * @param shown how the gateway's text (configuration id, time, author) and the reason are
 *   shown: escaped for a terminal (default), a code span in markdown
 */
export function driftBaseLine(report: DriftReport, shown: (text: string) => string = (text) => escapeInvisible(text)): string {
  if (report.base) {
    const b = report.base;
    const when = b.createdAt !== undefined ? ` (${shown(b.createdAt)}${b.createdBy !== undefined ? ` by ${shown(b.createdBy)}` : ''})` : '';
    return `Base: commit ${shown(b.sha)}, last applied by this project in configuration ${shown(b.configuration)}${when}.`;
  }
  return `No base: ${shown(report.baseUnavailable ?? 'none was looked for')}; Git now is compared with the gateway now, without telling which side changed.`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `Drift: N changed, N deleted, N added, N links changed on the gateway (N ignored).` */
export function driftSummaryLine(report: DriftReport): string {
  const count = (d: DriftDirection): number => driftedObjects(report.entries.filter((e) => e.direction === d)).length;
  const links = report.entries.filter((e) => e.direction === 'link-added' || e.direction === 'link-deleted').length;
  const ignored = report.ignored.length > 0 ? ` ${plural(report.ignored.length, 'difference')} ignored.` : '';
  const rotated = report.entries.filter((e) => e.side === 'key-source').length;
  const rotations = rotated > 0 ? ` ${plural(rotated, 'attribute')} with an earlier key of a key source that rotated its keys, not applied yet.` : '';
  if (onlyKeyRotations(report)) return `Drift:${rotations}${ignored}`;
  if (report.base) {
    const side = (s: DriftSide): number => report.entries.filter((e) => e.side === s).length;
    return `Drift: ${side('gateway')} changed on the gateway since the last apply, ${side('git')} changed in Git and not applied yet, ${plural(side('both'), 'conflict')}.${rotations}${ignored}`;
  }
  const changed = driftedObjects(report.entries.filter((e) => e.direction === 'changed' && e.side !== 'key-source')).length;
  return `Drift: ${changed} changed, ${count('deleted')} deleted, ${count('added')} added, ${plural(links, 'link')} changed on the gateway.${rotations}${ignored}`;
}

/**
 * A value on one line: JSON; a sensitive string unquoted, as the plan renderers show it
 * (values arrive masked, or described: a public key by kid and thumbprint, a versioned
 * secret by its version).
 */
function oneLine(value: unknown, sensitive: boolean): string {
  if (sensitive && typeof value === 'string') return value;
  if (value instanceof DescribedValue) return value.lines.map((line) => line.trim().replace(/^([^:]*:) +/, '$1 ')).join('; ');
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

function relatedTitle(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'kind' in value && 'name' in value && typeof value.kind === 'string' && typeof value.name === 'string') {
    return `${value.kind} ${JSON.stringify(value.name)}`;
  }
  return oneLine(value, false);
}

function where(entry: DriftEntry): string {
  return entry.source ? ` (${escapeInvisible(`${entry.source.file}:${entry.source.line}`)})` : '';
}

/** One activation on one line; the gateway's time, author, comment and id escaped (src/core/display.ts). */
function activationLine(a: DriftActivation): string {
  const shown = (text: string): string => escapeInvisible(text);
  return `${shown(a.createdAt ?? '(time unknown)')}  ${shown(a.createdBy ?? '(author unknown)')}  ${a.comment === undefined ? '(no comment)' : shown(JSON.stringify(a.comment))}  [configuration ${shown(a.id)}]`;
}

/**
 * The first line of a drifted report: the gateway changed outside gwops, or, when every
 * activation since gwops's last apply was a `gwops rollback`, that rollback (the newest);
 * with a base and no change on the gateway, that Git holds changes not applied yet.
 */
export function driftHeadline(report: DriftReport): string {
  // A key rotation at a key source is no change on the gateway: the gateway holds the key it was given.
  if (onlyKeyRotations(report)) {
    return `the key source the manifests read keys from (${keySources(report)}) rotated its keys: the gateway still holds the earlier key, which the source still publishes; apply rolls the new key out.`;
  }
  const rotated = report.entries.some((e) => e.side === 'key-source') ? ` A key source (${keySources(report)}) also rotated its keys.` : '';
  return `${gatewayHeadline(report)}${rotated}`;
}

/** {@link driftHeadline} of the differences that are no key rotation. */
function gatewayHeadline(report: DriftReport): string {
  if (report.base && !report.gatewayDrifted) return 'Git holds changes not applied yet; the gateway still holds what this project last applied.';
  const since = report.attribution.since;
  const rollback = since[0]?.rollbackTo;
  if (rollback !== undefined && since.every((a) => a.rollbackTo !== undefined)) {
    return `gwops rollback activated configuration ${rollback} again, which differs from the manifests.`;
  }
  return 'the gateway was changed outside gwops and differs from the manifests.';
}

/** What a report of key rotations alone says instead of who changed the gateway and when. */
const KEY_ROTATION_NOTE = 'None of these differences was made on the gateway: the key source published a new key, and apply rolls it out.';

/** What to say after the activations when one of them is a rollback. */
const ROLLBACK_NOTE =
  "A rollback is gwops's own activation, but the manifests in Git still describe what it rolled back: revert that in Git (gwops rollback printed how), or apply to undo the rollback.";

/** Lines of the "who and when" part. */
function attributionLines(attribution: DriftAttribution): string[] {
  const lines: string[] = [];
  const last = attribution.lastGwops;
  if (attribution.since.length > 0 && last) {
    lines.push(`Activated since gwops's last activation (configuration ${escapeInvisible(last.id)}, ${escapeInvisible(last.createdAt ?? 'time unknown')}), newest first:`);
    for (const a of attribution.since) lines.push(`  ${activationLine(a)}`);
    if (attribution.since.some((a) => a.rollbackTo !== undefined)) lines.push(ROLLBACK_NOTE);
  } else {
    lines.push(`The drift cannot be attributed: ${escapeInvisible(attribution.unattributed ?? 'no activation is known')}.`);
  }
  return lines;
}

/**
 * A changed entry's value as shown: cut to what the manifests declare and what differs
 * (DriftEntry `shown`), a certificate described unless `options.full` (values.ts `shownValue`).
 */
function shownSide(entry: DriftEntry, side: 'declared' | 'live', options: ValueOptions): unknown {
  return shownValue(entry.kind, entry.path ?? '', entry.shown ? entry.shown[side] : entry[side], options);
}

/** The note that says which side a diff's signs stand for. */
const DIFF_SIGNS = "(in a diff, - is the manifests' value, + the gateway's)";

/** Unchanged lines kept on each side of a changed line of a diff; the others are cut to one `…` line. */
const DIFF_CONTEXT = 3;

/** True when a value is shown on one line: a scalar, a one-line string, a described value (a certificate, a public key). */
function isOneLine(value: unknown): boolean {
  if (value instanceof DescribedValue) return true;
  if (typeof value === 'string') return !value.includes('\n');
  return typeof value !== 'object' || value === null;
}

/** True when a changed entry is shown as a diff (a list, an object, a multi-line string) rather than on one line. */
function isDiff(entry: DriftEntry, options: ValueOptions): boolean {
  return !isOneLine(shownSide(entry, 'declared', options)) || !isOneLine(shownSide(entry, 'live', options));
}

/**
 * The rows of a changed entry shown as a diff: the plan renderers' value diff (values.ts
 * `changeRows`, markdown's `diff` style) from the manifests' value (`-`) to the gateway's
 * (`+`), unchanged lines more than {@link DIFF_CONTEXT} away from a change cut to `…`.
 */
function diffRows(entry: DriftEntry, options: ValueOptions): Row[] {
  // A path can hold a key the gateway named (a sub-resource's): escaped, as every value line is (src/core/display.ts).
  const path = escapeInvisible(entry.path ?? '');
  const declared = shownSide(entry, 'declared', options);
  const live = shownSide(entry, 'live', options);
  const change: AttributeChange = { path, ...(declared !== undefined ? { before: declared } : {}), ...(live !== undefined ? { after: live } : {}), sensitive: entry.sensitive };
  const rows = changeRows(change, path.length, 'diff');
  const near = rows.map((_, i) => i === 0 || rows.slice(Math.max(0, i - DIFF_CONTEXT), i + DIFF_CONTEXT + 1).some((row) => row.sign !== ' '));
  const out: Row[] = [];
  rows.forEach((row, i) => {
    if (near[i] === true) out.push(row);
    else if (near[i - 1] === true) out.push({ sign: ' ', text: '    …' });
  });
  return out;
}

/** The lines under an object of the text report; names, paths and values escaped (src/core/display.ts). */
function entryLines(entry: DriftEntry, options: ValueOptions): string[] {
  return rawEntryLines(entry, options).map((line) => escapeInvisible(line));
}

function rawEntryLines(entry: DriftEntry, options: ValueOptions): string[] {
  switch (entry.direction) {
    case 'changed':
      if (isDiff(entry, options)) return diffRows(entry, options).map((row) => `      ${row.sign} ${row.text}`);
      return [`      ${entry.path ?? ''}: manifests ${oneLine(shownSide(entry, 'declared', options), entry.sensitive)}, gateway ${oneLine(shownSide(entry, 'live', options), entry.sensitive)}`];
    case 'deleted':
      return ['      declared in the manifests, missing on the gateway'];
    case 'added':
      return ['      inside the ownership scope, declared by no manifest'];
    case 'link-added':
      return [`      + ${entry.path?.replace(/^relationships\./, '') ?? ''} → ${relatedTitle(entry.live)}`];
    case 'link-deleted':
      return [`      - ${entry.path?.replace(/^relationships\./, '') ?? ''} → ${relatedTitle(entry.declared)}`];
  }
}

function ignoredLine(entry: IgnoredDriftEntry): string {
  const what = entry.path ?? entry.direction;
  return escapeInvisible(`${objectTitle(entry)} ${what} (${entry.direction}): ${entry.ignoredBy.reason} [until ${entry.ignoredBy.until}]`);
}

/**
 * The report for a terminal; certificates by subject, SANs, validity and fingerprint unless
 * `options.fullCertificates` (`--verbose`). @returns text ending in a newline
 */
export function renderDriftText(report: DriftReport, options: { readonly color: boolean; readonly fullCertificates?: boolean }): string {
  const c = createColors(options.color);
  const out: string[] = [];
  if (!report.drifted) {
    out.push(c.green(NO_DRIFT));
  } else {
    out.push(c.bold(`Drift detected: ${driftHeadline(report)}`));
    const unattributed = report.attribution.since.length === 0;
    if (report.base) out.push(driftBaseLine(report));
    for (const group of sideGroups(report)) {
      if (group.side !== undefined) out.push('', c.bold(c.underline(`${SIDE_HEADINGS[group.side]}:`)));
      for (const direction of DRIFT_DIRECTIONS) {
        const entries = group.entries.filter((e) => e.direction === direction);
        if (entries.length === 0) continue;
        out.push('', c.bold(`${headingsOf(group.side)[direction]}:`));
        if (direction === 'changed' && entries.some((e) => isDiff(e, { full: options.fullCertificates }))) out.push(c.dim(`  ${DIFF_SIGNS}`));
        for (const { ref, entries: mine } of entriesByObject(entries)) {
          const first = mine[0];
          const unattributable = unattributed && group.side !== 'git' && group.side !== 'key-source';
          out.push(`  ${c.yellow('#')} ${objectTitle(ref)}${first ? where(first) : ''}${unattributable ? ' — cannot be attributed' : ''}`);
          for (const entry of mine) out.push(...entryLines(entry, { full: options.fullCertificates }));
        }
      }
    }
    out.push('', ...(onlyKeyRotations(report) ? [KEY_ROTATION_NOTE] : attributionLines(report.attribution)));
  }
  if (report.ignored.length > 0) {
    out.push('', `Ignored (drift.ignore in the project file):`);
    for (const entry of report.ignored) out.push(`  ${ignoredLine(entry)}`);
  }
  if (report.drifted || report.ignored.length > 0) out.push('', c.bold(driftSummaryLine(report)));
  return `${out.join('\n')}\n`;
}

/** gwops's own text in markdown (no name or value of the gateway's inside: those are code spans, markdown-text.ts). */
function escapeInline(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/`/g, '\\`').replace(/\r?\n/g, ' ');
}

/** Longest value shown in a markdown table cell, in characters; longer ones are cut with `…` (the comment limit). */
const CELL_LIMIT = 300;

/** A value, name or text of the gateway in a table cell: a code span (markdown-text.ts), cut at {@link CELL_LIMIT}. */
function cell(value: unknown, sensitive: boolean): string {
  if (value === undefined) return '';
  return textCell(oneLine(value, sensitive));
}

function textCell(text: string): string {
  return codeCell(text.length > CELL_LIMIT ? `${text.slice(0, CELL_LIMIT - 1)}…` : text);
}

/**
 * The report as markdown (an issue body, a job summary); when drifted and `options.topology`
 * is given (topology.ts `driftTopology`: what happened on the gateway), headed by its Mermaid picture.
 */
export function renderDriftMarkdown(report: DriftReport, options: { readonly topology?: Topology; readonly fullCertificates?: boolean } = {}): string {
  const values: ValueOptions = { full: options.fullCertificates };
  const out: string[] = [DRIFT_MARKDOWN_MARKER, '### gwops drift', ''];
  if (!report.drifted) {
    out.push(NO_DRIFT, '');
  } else {
    const headline = driftHeadline(report);
    out.push(headline.startsWith('the ') ? `The ${headline.slice(4)}` : headline, '');
    if (options.topology) out.push(...pictureMarkdown(options.topology, MERMAID_DRIFT_LEGEND));
    if (report.base) out.push(driftBaseLine(report, codeSpan), '');
    for (const { side, direction, entries, firstOfSide } of driftSections(report)) {
      if (side !== undefined && firstOfSide) out.push(`#### ${escapeInline(SIDE_HEADINGS[side])}`, '');
      out.push(`${side !== undefined ? '#####' : '####'} ${headingsOf(side)[direction]}`, '');
      switch (direction) {
        case 'changed': {
          const lines = entries.filter((e) => !isDiff(e, values));
          if (lines.length > 0) out.push('| Object | Attribute | Manifests | Gateway |', '|---|---|---|---|');
          for (const e of lines) out.push(`| ${textCell(objectTitle(e))} | ${textCell(e.path ?? '')} | ${cell(shownSide(e, 'declared', values), e.sensitive)} | ${cell(shownSide(e, 'live', values), e.sensitive)} |`);
          // Lists, objects and multi-line strings: the plan's value diff, each in its block (a table cell holds one line).
          const diffs = entries.filter((e) => isDiff(e, values));
          if (diffs.length > 0) out.push(...(lines.length > 0 ? [''] : []), `_${escapeInline(DIFF_SIGNS.slice(1, -1).replace(/^in/, 'In'))}._`);
          for (const e of diffs) out.push('', `${codeSpan(objectTitle(e))} ${codeSpan(e.path ?? '')}:`, '', ...fenced('diff', diffRows(e, values).map((row) => `${row.sign} ${escapeInvisible(row.text)}`)));
          break;
        }
        case 'deleted':
        case 'added':
          out.push('| Object | Declared in |', '|---|---|');
          for (const e of entries) out.push(`| ${textCell(objectTitle(e))} | ${e.source ? textCell(`${e.source.file}:${e.source.line}`) : 'no manifest'} |`);
          break;
        case 'link-added':
        case 'link-deleted':
          out.push('| Object | Relationship | Related |', '|---|---|---|');
          for (const e of entries) {
            const related = relatedTitle(direction === 'link-added' ? e.live : e.declared);
            out.push(`| ${textCell(objectTitle(e))} | ${textCell(e.path?.replace(/^relationships\./, '') ?? '')} | ${textCell(related)} |`);
          }
          break;
      }
      out.push('');
    }
    out.push('#### Who and when', '');
    const last = report.attribution.lastGwops;
    if (onlyKeyRotations(report)) {
      out.push(KEY_ROTATION_NOTE);
    } else if (report.attribution.since.length > 0 && last) {
      out.push(`Activations since gwops's last one (configuration ${codeSpan(last.id)}, ${last.createdAt !== undefined ? codeSpan(last.createdAt) : 'time unknown'}), newest first:`, '');
      out.push('| Time | Author | Comment | Configuration |', '|---|---|---|---|');
      for (const a of report.attribution.since) {
        out.push(`| ${textCell(a.createdAt ?? '')} | ${textCell(a.createdBy ?? '')} | ${textCell(a.comment ?? '')} | ${textCell(a.id)} |`);
      }
      if (report.attribution.since.some((a) => a.rollbackTo !== undefined)) out.push('', ROLLBACK_NOTE);
    } else {
      out.push(`The drift cannot be attributed: ${escapeInline(escapeInvisible(report.attribution.unattributed ?? 'no activation is known'))}.`);
    }
    out.push('');
  }
  if (report.ignored.length > 0) {
    out.push('#### Ignored', '', '| Object | Attribute | Reason | Until |', '|---|---|---|---|');
    for (const e of report.ignored) out.push(`| ${textCell(objectTitle(e))} | ${textCell(e.path ?? e.direction)} | ${textCell(e.ignoredBy.reason)} | ${textCell(e.ignoredBy.until)} |`);
    out.push('');
  }
  if (report.drifted || report.ignored.length > 0) out.push(`**${escapeInline(driftSummaryLine(report))}**`, '');
  return `${out.join('\n')}`;
}

/** Keys first, in this order, wherever they appear; others follow sorted. */
const KEY_ORDER = ['formatVersion', 'drifted', 'summary', 'entries', 'ignored', 'expiredIgnores', 'attribution', 'base', 'baseUnavailable', 'gatewayDrifted', 'direction', 'side', 'kind', 'name', 'path', 'declared', 'live', 'sensitive', 'source', 'ignoredBy'];
const rank = new Map(KEY_ORDER.map((k, i) => [k, i]));

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value).sort((a, b) => (rank.get(a) ?? KEY_ORDER.length) - (rank.get(b) ?? KEY_ORDER.length) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = ordered((value as Record<string, unknown>)[key]);
  return out;
}

/** The report as one JSON document (src/core/json-document.ts; keys in a stable order), with counts per direction in `summary`. */
export function renderDriftJson(report: DriftReport): string {
  const summary: Record<string, number> = {};
  for (const d of DRIFT_DIRECTIONS) summary[d] = report.entries.filter((e) => e.direction === d).length;
  summary.ignored = report.ignored.length;
  if (report.base) for (const side of DRIFT_SIDES) summary[side] = report.entries.filter((e) => e.side === side).length;
  // `shown` is how text and markdown cut a value; the JSON's `declared` and `live` are whole.
  const whole = <T extends DriftEntry>({ shown: _shown, ...entry }: T): Omit<T, 'shown'> => entry;
  return jsonDocument(DRIFT_FORMAT_VERSION, ordered({ ...report, entries: report.entries.map(whole), ignored: report.ignored.map(whole), summary }) as Record<string, unknown>);
}

/**
 * What a plan reverts of the changes made on the gateway since this project's last apply,
 * for stderr before the plan (Terraform's "Objects have changed outside of Terraform"):
 * each difference with the gateway's value and Git's, conflicts marked, then who and when.
 * @returns text ending in a newline
 */
export function renderOutsideChanges(changes: { readonly base: DriftReport['base']; readonly entries: readonly DriftEntry[]; readonly attribution: DriftAttribution }): string {
  const base = changes.base ? ` (commit ${changes.base.sha}, configuration ${changes.base.configuration})` : '';
  // Names, paths and values are the gateway's or the manifests' text: every line escaped (src/core/display.ts).
  const lines = [`Changed outside gwops since this project's last apply${base}; this plan reverts:`];
  for (const e of changes.entries) {
    const conflict = e.side === 'both' ? ' [changed in Git too]' : '';
    switch (e.direction) {
      case 'changed':
        lines.push(`  ${objectTitle(e)} ${e.path ?? ''}: gateway ${oneLine(e.live, e.sensitive)} → Git ${oneLine(e.declared, e.sensitive)}${conflict}`);
        break;
      case 'deleted':
        lines.push(`  ${objectTitle(e)}: deleted on the gateway, created again${conflict}`);
        break;
      case 'added':
        lines.push(`  ${objectTitle(e)}: added on the gateway${conflict}`);
        break;
      case 'link-added':
        lines.push(`  ${objectTitle(e)} ${e.path ?? ''}: link to ${relatedTitle(e.live)} added on the gateway, removed again${conflict}`);
        break;
      case 'link-deleted':
        lines.push(`  ${objectTitle(e)} ${e.path ?? ''}: link to ${relatedTitle(e.declared)} removed on the gateway, made again${conflict}`);
        break;
    }
  }
  const escapedLines = lines.map((line) => escapeInvisible(line));
  escapedLines.push(...attributionLines(changes.attribution));
  return `${escapedLines.join('\n')}\n`;
}
