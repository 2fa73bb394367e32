/**
 * The plan as a pull-request comment (GitHub-flavoured markdown): a hidden marker first so
 * CI can find and update one comment in place, a Mermaid picture of what the plan touches
 * (mermaid.ts; when the caller passes the topology), a summary table, one collapsible
 * `<details>` section per object, validator messages with their manifest file and line,
 * and the objects inside the ownership scope that no manifest declares.
 */
import { keptHeading, keptLine } from './ignored.js';
import type { Diagnostic, DiagnosticSeverity } from '../diagnostics.js';
import type { Plan } from '../engine/plan-types.js';
import { deleteCause, groupSteps, groupVerb } from './groups.js';
import { MERMAID_LEGEND, renderMermaid } from './mermaid.js';
import type { Topology } from './topology.js';
import type { ObjectGroup } from './groups.js';
import { NO_CHANGES, changeRows, contentRows, objectTitle, pathWidth, shownChange, summaryLine, unchangedNote } from './values.js';

/** The hidden marker that starts every plan comment. */
export const MARKDOWN_MARKER = '<!-- gwops-plan -->';

/** Options of {@link renderMarkdown}. */
export interface MarkdownOptions {
  /** Messages of the gateway's validator as diagnostics (`plan` without `--no-server-check`; src/operations/plan.ts `locateMessages`). */
  readonly validatorMessages?: readonly Diagnostic[];
  /** Heading; default `gwops plan`. */
  readonly title?: string;
  /**
   * Upper bound of the output's size in bytes of UTF-8 (default {@link MARKDOWN_MAX_BYTES},
   * under the 65,536 characters GitHub takes in a comment; its job summary takes 1 MiB).
   * Object sections that do not fit are left out with a note; the summary, validator
   * messages and undeclared objects are always kept.
   */
  readonly maxBytes?: number;
  /**
   * What the plan touches and its neighbours (topology.ts `planTopology`): drawn as a
   * Mermaid flowchart under the heading, with its legend, when the plan has steps.
   */
  readonly topology?: Topology;
  /** Certificates as their PEM (`--verbose`); else by subject, SANs, validity and fingerprint. */
  readonly fullCertificates?: boolean;
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
function fenced(language: string, lines: readonly string[]): string[] {
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

function groupSection(group: ObjectGroup, full: boolean): string[] {
  const change = group.change;
  const sign = change?.action === 'create' ? '+' : change?.action === 'delete' ? '-' : '~';
  const counts: string[] = [];
  if (change?.action === 'update' && (change.changes.length > 0 || !change.content)) counts.push(`${change.changes.length} attribute${change.changes.length === 1 ? '' : 's'}`);
  if (change?.action === 'update' && change.content) counts.push('content');
  if (group.links.length > 0) counts.push(`${group.links.length} link${group.links.length === 1 ? '' : 's'}`);
  const summary = `<code>${sign} ${escapeInline(objectTitle(group.ref))}</code> ${groupVerb(group)}${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`;
  const notes: string[] = [];
  const source = change?.source ?? group.links.find((l) => l.source)?.source;
  if (source) notes.push(`Declared in \`${escapeInline(source.file)}:${source.line}\`.`);
  if (change?.action === 'delete') notes.push(`Reason: ${escapeInline(deleteCause(change))}.`);
  return ['<details>', `<summary>${summary}</summary>`, '', ...(notes.length > 0 ? [notes.join(' '), ''] : []), ...fenced('diff', groupLines(group, full)), '', '</details>'];
}

/** How the table shows a severity: an icon and the gateway's word. */
const SEVERITY_CELL: Readonly<Record<DiagnosticSeverity, string>> = { error: '❌ ERROR', warning: '⚠️ WARNING', info: 'ℹ️ INFO' };

function validatorSection(messages: readonly Diagnostic[]): string[] {
  const errors = messages.filter((m) => m.severity === 'error').length;
  const lines = [
    `#### Gateway validator: ${messages.length} message${messages.length === 1 ? '' : 's'}${errors > 0 ? `, ${errors} error${errors === 1 ? '' : 's'} (apply would not activate)` : ''}`,
    '',
    '| Severity | Code | Object | Where | Detail |',
    '|---|---|---|---|---|',
  ];
  for (const m of messages) {
    const object = m.object ? `<code>${escapeInline(objectTitle(m.object))}</code>` : '';
    const where = m.file !== undefined ? `<code>${escapeInline(`${m.file}:${m.line}`)}</code>` : '';
    lines.push(`| ${SEVERITY_CELL[m.severity]} | <code>${escapeInline(m.code)}</code> | ${object} | ${where} | ${escapeInline(m.message)} |`);
  }
  return lines;
}

/** The Mermaid picture of `topology` as markdown lines: the fenced flowchart, then `legend` (mermaid.ts; a plan's by default). */
export function pictureMarkdown(topology: Topology, legend: string = MERMAID_LEGEND): string[] {
  return [...fenced('mermaid', renderMermaid(topology).trimEnd().split('\n')), '', `<sub>${legend}</sub>`, ''];
}

/**
 * Renders a plan as a pull-request comment. The first line is {@link MARKDOWN_MARKER}.
 * Secrets are already masked in the plan and stay masked; validator messages are shown
 * as given (escaped). Object sections beyond `maxBytes` are left out with a note.
 * @returns markdown ending in a newline
 */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const head: string[] = [MARKDOWN_MARKER, `### ${escapeInline(options.title ?? 'gwops plan')}`, ''];
  const tail: string[] = [];
  if (plan.steps.length === 0) {
    head.push(`**${NO_CHANGES}**`, '');
  } else {
    if (options.topology) head.push(...pictureMarkdown(options.topology));
    const s = plan.summary;
    head.push(
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
  }
  if (options.validatorMessages && options.validatorMessages.length > 0) tail.push(...validatorSection(options.validatorMessages), '');
  if (plan.unmanaged.length > 0) {
    tail.push('#### Not declared by any manifest (inside the ownership scope; `--prune` deletes them)', '');
    for (const ref of plan.unmanaged) tail.push(`- <code>${escapeInline(objectTitle(ref))}</code>`);
    tail.push('');
  }
  // Differences kept by drift.ignore entries in force (src/render/ignored.ts).
  if (plan.ignored && plan.ignored.length > 0) {
    tail.push(`#### ${escapeInline(keptHeading(plan.ignored.length))}`, '');
    for (const kept of plan.ignored) tail.push(`- ${escapeInline(keptLine(kept))}`);
    tail.push('');
  }
  const budget = (options.maxBytes ?? MARKDOWN_MAX_BYTES) - Buffer.byteLength([...head, ...tail].join('\n')) - 200;
  const groups = groupSteps(plan);
  const body: string[] = [];
  let used = 0;
  let shown = 0;
  for (const group of groups) {
    const section = [...groupSection(group, options.fullCertificates === true), ''];
    const size = Buffer.byteLength(section.join('\n')) + 1;
    if (used + size > budget) break;
    body.push(...section);
    used += size;
    shown += 1;
  }
  if (shown < groups.length) {
    const left = groups.length - shown;
    body.push(`_${left} more object${left === 1 ? '' : 's'} not shown, to keep this text within its size limit: the whole plan is in \`gwops plan --format json\` (the GitHub Action uploads it with the run's artifacts)._`, '');
  }
  return `${[...head, ...body, ...tail].join('\n').trimEnd()}\n`;
}
