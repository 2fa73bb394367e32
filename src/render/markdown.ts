/**
 * The plan as a pull-request comment (GitHub-flavoured markdown): a hidden marker first so
 * CI can find and update one comment in place, a Mermaid picture of what the plan touches
 * (mermaid.ts; when the caller passes the topology), a summary table, one collapsible
 * `<details>` section per object, validator messages with their manifest file and line,
 * and the objects inside the ownership scope that no manifest declares.
 */
import { keptHeading, keptLine } from './ignored.js';
import type { Diagnostic, DiagnosticSeverity } from '../core/diagnostics.js';
import type { Plan } from '../engine/plan-types.js';
import { deleteCause, groupSteps, groupVerb } from './groups.js';
import { MERMAID_LEGEND, renderMermaid } from './mermaid.js';
import type { ServerCheck } from './run-report.js';
import { serverCheckSentence } from './run-report.js';
import type { Topology } from './topology.js';
import type { ObjectGroup } from './groups.js';
import { codeCell, codeSpan } from './markdown-text.js';
import { NO_CHANGES, changeRows, contentRows, objectTitle, pathWidth, shownChange, summaryLine, unchangedNote } from './values.js';

/** The hidden marker that starts every plan comment. */
export const MARKDOWN_MARKER = '<!-- gwops-plan -->';

/** Options of {@link renderMarkdown}. */
export interface MarkdownOptions {
  /** Messages of the gateway's validator as diagnostics (`plan` without `--no-server-check`; src/operations/steps/pipeline.ts `locateMessages`). */
  readonly validatorMessages?: readonly Diagnostic[];
  /** Heading; default `gwops plan`. */
  readonly title?: string;
  /**
   * Upper bound of the output's size in bytes of UTF-8 (default {@link MARKDOWN_MAX_BYTES},
   * under the 65,536 characters GitHub takes in a comment; its job summary takes 1 MiB).
   * The heading and the summary table always stay; then, while they fit and in this
   * order, the names of every deletion, update and link removal, the validator's
   * messages, the undeclared objects, the picture and the object sections (deletions
   * first, then updates and link removals, then creations); what does not fit is left out
   * with a note saying how much. A deletion, update or link removal whose section is left
   * out is named in a list under the summary table (docs/ci-guide.md "Where the plan
   * goes, and GitHub's limits").
   */
  readonly maxBytes?: number;
  /**
   * What the plan touches and its neighbours (topology.ts `planTopology`): drawn as a
   * Mermaid flowchart under the heading, with its legend, when the plan has steps.
   */
  readonly topology?: Topology;
  /** Certificates as their PEM (`--verbose`); else by subject, SANs, validity and fingerprint. */
  readonly fullCertificates?: boolean;
  /** How a manifest path is shown ("Declared in", the validator's table): e.g. from the repository's root; as it is when absent. */
  readonly filePath?: (file: string) => string;
  /** Whether the plan went through the server check (`plan`): said in a sentence under the summary table of a plan with changes. */
  readonly serverCheck?: ServerCheck;
}

/** Default {@link MarkdownOptions.maxBytes}. */
export const MARKDOWN_MAX_BYTES = 60_000;

/** Escapes text for HTML and markdown inline contexts (table cells, summaries). */
function escapeInline(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function fenced(language: string, lines: readonly string[]): string[] {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((run) => run.length))));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${language}`, ...lines, fence];
}

function groupLines(group: ObjectGroup, full: boolean): string[] {
  const lines: string[] = [];
  const change = group.change;
  if (change?.action === 'create' || change?.action === 'update') {
    const width = pathWidth(change.changes);
    for (const ch of change.changes) for (const row of changeRows(shownChange(group.ref.kind, ch, { full }), width, 'diff')) lines.push(`${row.sign} ${row.text}`);
    for (const row of change.content ? contentRows(change.content) : []) lines.push(`${row.sign} ${row.text}`);
    if (change.action === 'update' && change.unchangedCount > 0) lines.push(`  # ${unchangedNote(change.unchangedCount)}`);
  }
  if (change?.action === 'delete') lines.push(`- ${objectTitle(group.ref)}`);
  for (const link of group.links) lines.push(`${link.action === 'link' ? '+' : '-'} ${link.action} ${link.relationship} → ${objectTitle(link.related)}`);
  return lines;
}

function groupSection(group: ObjectGroup, full: boolean, filePath: (file: string) => string): string[] {
  const change = group.change;
  const sign = groupSign(group);
  const counts: string[] = [];
  if (change?.action === 'update' && (change.changes.length > 0 || !change.content)) counts.push(`${change.changes.length} attribute${change.changes.length === 1 ? '' : 's'}`);
  if (change?.action === 'update' && change.content) counts.push('content');
  if (group.links.length > 0) counts.push(`${group.links.length} link${group.links.length === 1 ? '' : 's'}`);
  const summary = `<code>${sign} ${escapeInline(objectTitle(group.ref))}</code> ${groupVerb(group)}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`;
  const notes: string[] = [];
  const source = change?.source ?? group.links.find((l) => l.source)?.source;
  if (source) notes.push(`Declared in ${codeSpan(`${filePath(source.file)}:${source.line}`)}.`);
  if (change?.action === 'delete') notes.push(`Reason: ${escapeInline(deleteCause(change))}.`);
  return ['<details>', `<summary>${summary}</summary>`, '', ...(notes.length > 0 ? [notes.join(' '), ''] : []), ...fenced('diff', groupLines(group, full)), '', '</details>'];
}

/** A deletion, update or link removal whose section is cut, named in one list item. */
function nameLine(group: ObjectGroup): string {
  return `- ${codeSpan(objectTitle(group.ref))} ${groupVerb(group)}`;
}

/** How the table shows a severity: an icon and the gateway's word. */
const SEVERITY_CELL: Readonly<Record<DiagnosticSeverity, string>> = { error: '❌ ERROR', warning: '⚠️ WARNING', info: 'ℹ️ INFO' };

/** Longest text of the gateway in one cell of the validator's table, in characters; longer ones are cut with `…`. */
const MESSAGE_LIMIT = 2_000;

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** The heading and table head of the validator's messages. */
function validatorHead(messages: readonly Diagnostic[]): string[] {
  const errors = messages.filter((m) => m.severity === 'error').length;
  return [
    `#### Gateway validator: ${messages.length} message${messages.length === 1 ? '' : 's'}${errors > 0 ? `, ${errors} error${errors === 1 ? '' : 's'} (apply would not activate)` : ''}`,
    '',
    '| Severity | Code | Object | Where | Detail |',
    '|---|---|---|---|---|',
  ];
}

/** One message as a table row: its code, object, place and text as code spans (markdown-text.ts). */
function validatorRow(m: Diagnostic, filePath: (file: string) => string): string {
  const object = m.object ? codeCell(cut(objectTitle(m.object), MESSAGE_LIMIT)) : '';
  const where = m.file !== undefined ? codeCell(cut(`${filePath(m.file)}:${m.line}`, MESSAGE_LIMIT)) : '';
  return `| ${SEVERITY_CELL[m.severity]} | ${codeCell(cut(m.code, MESSAGE_LIMIT))} | ${object} | ${where} | ${codeCell(cut(m.message, MESSAGE_LIMIT))} |`;
}

/** The Mermaid picture of `topology` as markdown lines: the fenced flowchart, then `legend` (mermaid.ts; a plan's by default). */
export function pictureMarkdown(topology: Topology, legend: string = MERMAID_LEGEND): string[] {
  return [...fenced('mermaid', renderMermaid(topology).trimEnd().split('\n')), '', `<sub>${legend}</sub>`, ''];
}

/** Bytes of UTF-8 of `lines` joined and ended by line feeds. */
function bytesOf(lines: readonly string[]): number {
  let n = 0;
  for (const line of lines) n += Buffer.byteLength(line) + 1;
  return n;
}

/** A part of the report that is cut to fit: its parts in order (each whole or not at all), and the note when some are left out. */
interface CutPart {
  readonly items: readonly (readonly string[])[];
  /** The note for `left` items left out (markdown lines). */
  readonly note: (left: number) => string[];
}

/** A note on what was left out, with the largest count a report can have: the room it is given. */
const NOTE_ROOM = (note: (left: number) => string[]): number => bytesOf(note(Number.MAX_SAFE_INTEGER));

/** The lines each part keeps (its note included when some items were left out), and how many of its items it shows. */
interface Fitted {
  readonly lines: string[];
  readonly shown: number;
}

/**
 * The items of each part that fit in `room` bytes, in the order of `parts` (the first
 * has the first claim), each part's note counted in before any of its items: what is
 * left out is always said.
 * @returns per part, the lines kept (and its note when some were left out) and the count of items shown
 */
function fit(parts: readonly CutPart[], room: number): Fitted[] {
  let left = room - parts.reduce((sum, part) => sum + (part.items.length > 0 ? NOTE_ROOM(part.note) : 0), 0);
  return parts.map((part) => {
    const lines: string[] = [];
    let shown = 0;
    for (const item of part.items) {
      const size = bytesOf(item);
      if (size > left) break;
      lines.push(...item);
      left -= size;
      shown += 1;
    }
    if (shown < part.items.length) lines.push(...part.note(part.items.length - shown));
    return { lines, shown };
  });
}

/**
 * Which object sections keep their room first when a plan must be cut: deletions (0), then
 * updates and link removals (1), then creations and added links (2).
 */
function cutRank(group: ObjectGroup): number {
  if (group.change?.action === 'delete') return 0;
  if (group.change?.action === 'update' || group.links.some((link) => link.action === 'unlink')) return 1;
  return 2;
}

/** The sign of a group's section: `+` create, `-` delete, `~` update or relink. */
function groupSign(group: ObjectGroup): string {
  return group.change?.action === 'create' ? '+' : group.change?.action === 'delete' ? '-' : '~';
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const WHOLE_PLAN = "the whole plan is in `gwops plan --format json` (the GitHub Action puts it in the job summary and the run's artifact)";

/**
 * Renders a plan as a pull-request comment. The first line is {@link MARKDOWN_MARKER}.
 * Secrets are already masked in the plan and stay masked; names, file names and the
 * validator's messages are code spans (markdown-text.ts). The output is at most
 * `maxBytes` bytes of UTF-8 ({@link MarkdownOptions.maxBytes}: what does not fit is left
 * out with a note).
 * @returns markdown ending in a newline
 */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const limit = options.maxBytes ?? MARKDOWN_MAX_BYTES;
  const filePath = options.filePath ?? ((file: string): string => file);
  const head: string[] = [MARKDOWN_MARKER, `### ${escapeInline(options.title ?? 'gwops plan')}`, ''];
  const summary: string[] = [];
  if (plan.steps.length === 0) {
    summary.push(`**${NO_CHANGES}**`, '');
  } else {
    const s = plan.summary;
    summary.push(
      `**${summaryLine(s)}**`,
      '',
      '| Action | Count |',
      '|---|---:|',
      `| ➕ create | ${s.create} |`,
      `| 🔄 update | ${s.update} |`,
      `| ➖ delete | ${s.delete} |`,
      `| 🔗 link | ${s.link} |`,
      `| ✂️ unlink | ${s.unlink} |`,
      '',
    );
    if (options.serverCheck !== undefined && options.serverCheck !== 'not-needed') summary.push(`_${escapeInline(serverCheckSentence(options.serverCheck, options.validatorMessages ?? []))}_`, '');
  }
  const messages = options.validatorMessages ?? [];
  const validator: CutPart = {
    items: messages.map((m) => [validatorRow(m, filePath)]),
    note: (left) => ['', `_${plural(left, 'more validator message')} not shown, to keep this text within its size limit: every message is in \`gwops plan --format json\`._`],
  };
  const unmanaged: CutPart = {
    items: plan.unmanaged.map((ref) => [`- ${codeSpan(objectTitle(ref))}`]),
    note: (left) => [`- _${plural(left, 'more object')} not shown, to keep this text within its size limit: ${WHOLE_PLAN}._`],
  };
  const picture: CutPart = {
    items: options.topology && plan.steps.length > 0 ? [pictureMarkdown(options.topology)] : [],
    note: () => ['_The picture of the plan is left out, to keep this text within its size limit._', ''],
  };
  // Differences kept by drift.ignore entries in force (src/render/ignored.ts): names and reasons are input, so code spans.
  const ignored = plan.ignored ?? [];
  const kept: CutPart = {
    items: ignored.map((k) => [`- ${codeSpan(keptLine(k))}`]),
    note: (left) => [`- _${plural(left, 'more ignored difference')} not shown, to keep this text within its size limit: ${WHOLE_PLAN}._`],
  };
  const groups = groupSteps(plan);
  // Cut in the order of cutRank, each rank in plan order: deletions keep their sections first.
  const byRank = groups.map((group, at) => ({ group, at, rank: cutRank(group) })).sort((a, b) => a.rank - b.rank || a.at - b.at);
  const objects: CutPart = {
    items: byRank.map(({ group }) => [...groupSection(group, options.fullCertificates === true, filePath), '']),
    note: (left) => [`_${plural(left, 'more object')} not shown, to keep this text within its size limit: ${WHOLE_PLAN}._`, ''],
  };
  // Every deletion, update and link removal is named, its section shown or not: the room for all their names is claimed first.
  const destructive = byRank.filter(({ rank }) => rank < 2).map(({ group }) => group);
  const names: CutPart = {
    items: destructive.map((group) => [nameLine(group)]),
    note: (left) => [`- _${plural(left, 'more deletion, update or link removal')} not named, to keep this text within its size limit: ${WHOLE_PLAN}._`],
  };
  const namesTitle = destructive.length > 0 ? ['#### Deletions, updates and link removals not shown in detail', ''] : [];
  const validatorTitle = messages.length > 0 ? [...validatorHead(messages)] : [];
  const unmanagedTitle = plan.unmanaged.length > 0 ? ['#### Not declared by any manifest (inside the ownership scope; `--prune` deletes them)', ''] : [];
  // The fixed lines, the blank lines that end the names', the validator's and the undeclared sections.
  const keptTitle = ignored.length > 0 ? [`#### ${escapeInline(keptHeading(ignored.length))}`, ''] : [];
  const fixed = bytesOf([
    ...head,
    ...summary,
    ...namesTitle,
    ...(destructive.length > 0 ? [''] : []),
    ...validatorTitle,
    ...(messages.length > 0 ? [''] : []),
    ...unmanagedTitle,
    ...(plan.unmanaged.length > 0 ? [''] : []),
    ...keptTitle,
    ...(ignored.length > 0 ? [''] : []),
  ]);
  const [namesFit, validatorFit, unmanagedFit, keptFit, pictureFit, bodyFit] = fit([names, validator, unmanaged, kept, picture, objects], limit - fixed);
  const validatorRows = validatorFit?.lines ?? [];
  const unmanagedRows = unmanagedFit?.lines ?? [];
  const keptRows = keptFit?.lines ?? [];
  const pictureLines = pictureFit?.lines ?? [];
  // All sections shown: in plan order; else those that fit, in the order of cutRank, and the names of the destructive ones cut.
  const allShown = (bodyFit?.shown ?? 0) === groups.length;
  const body = allShown ? groups.flatMap((group) => [...groupSection(group, options.fullCertificates === true, filePath), '']) : (bodyFit?.lines ?? []);
  const shownSections = new Set(byRank.slice(0, bodyFit?.shown ?? 0).map(({ group }) => group));
  const namedRoom = namesFit?.shown ?? 0;
  const cutNamed = destructive.slice(0, namedRoom).filter((group) => !shownSections.has(group));
  const cutUnnamed = destructive.slice(namedRoom).filter((group) => !shownSections.has(group)).length;
  const nameLines = cutNamed.length + cutUnnamed > 0 ? [...namesTitle, ...cutNamed.map(nameLine), ...(cutUnnamed > 0 ? names.note(cutUnnamed) : []), ''] : [];
  const tail: string[] = [];
  if (messages.length > 0) tail.push(...validatorTitle, ...validatorRows, '');
  if (plan.unmanaged.length > 0) tail.push(...unmanagedTitle, ...unmanagedRows, '');
  if (ignored.length > 0) tail.push(...keptTitle, ...keptRows, '');
  const all = `${[...head, ...pictureLines, ...summary, ...nameLines, ...body, ...tail].join('\n').trimEnd()}\n`;
  if (Buffer.byteLength(all) <= limit) return all;
  // A bound too small for the headings and the notes: the summary and one note on the rest.
  const rest = [
    messages.length > 0 ? plural(messages.length, 'more validator message') : '',
    plan.unmanaged.length > 0 ? `${plural(plan.unmanaged.length, 'more object')} not declared by any manifest` : '',
    ignored.length > 0 ? plural(ignored.length, 'ignored difference') : '',
    picture.items.length > 0 ? 'the picture' : '',
    groups.length > 0 ? plural(groups.length, 'more object section') : '',
  ].filter((part) => part !== '');
  return `${[...head, ...summary, `_Not shown, to keep this text within its size limit: ${rest.join(', ')}; ${WHOLE_PLAN}._`].join('\n')}\n`;
}
