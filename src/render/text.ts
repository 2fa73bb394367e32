/**
 * The plan as terminal text, in the conventions people know from Terraform: `+` create,
 * `~` update in place, `-` destroy, only changed attributes shown with a count of hidden
 * unchanged ones, and a closing `Plan: ...` line.
 */
import { keptHeading, keptLine } from './ignored.js';
import pc from 'picocolors';
import type { Plan } from '../engine/plan-types.js';
import { deleteCause, groupSteps, groupVerb } from './groups.js';
import type { ObjectGroup } from './groups.js';
import { gatherChunks } from './json-chunks.js';
import type { Row, Sign } from './values.js';
import { NO_CHANGES, changeRows, contentRows, objectTitle, pathWidth, shownChange, summaryLine, unchangedNote } from './values.js';

/** Options of {@link renderText}. */
export interface TextOptions {
  /** ANSI colours on (the caller decides: TTY and no `NO_COLOR`). */
  readonly color: boolean;
  /** Certificates as their PEM (`--verbose`); else by subject, SANs, validity and fingerprint. */
  readonly fullCertificates?: boolean;
  /** The line above the objects; default `gwops will perform the following actions:` (a rollback preview names itself). */
  readonly heading?: string;
}

type Colors = ReturnType<typeof pc.createColors>;

function paintSign(c: Colors, sign: Sign): string {
  switch (sign) {
    case '+':
      return c.green('+');
    case '-':
      return c.red('-');
    case '~':
      return c.yellow('~');
    case ' ':
      return ' ';
  }
}

function blockSign(group: ObjectGroup): Sign {
  switch (group.change?.action) {
    case 'create':
      return '+';
    case 'delete':
      return '-';
    case 'update':
    case undefined:
      return '~';
  }
}

function renderGroup(group: ObjectGroup, c: Colors, options: TextOptions): string[] {
  const out: string[] = [];
  const title = objectTitle(group.ref);
  const sign = blockSign(group);
  out.push(c.bold(`  # ${title} ${groupVerb(group)}`));
  const change = group.change;
  if (change?.action === 'delete') {
    out.push(c.dim(`  # (${deleteCause(change)})`));
    out.push(`  ${paintSign(c, '-')} ${title}`);
    return out;
  }
  out.push(`  ${paintSign(c, sign)} ${title} {`);
  const rows: Row[] = [];
  if (change) {
    const width = pathWidth(change.changes);
    const shown = { full: options.fullCertificates };
    for (const ch of change.changes) for (const row of changeRows(shownChange(group.ref.kind, ch, shown), width, 'text')) rows.push(row);
    if (change.content) rows.push(...contentRows(change.content));
  }
  for (const row of rows) out.push(`      ${paintSign(c, row.sign)} ${row.text}`);
  if (change?.action === 'update' && change.unchangedCount > 0) out.push(c.dim(`        # ${unchangedNote(change.unchangedCount)}`));
  if (group.links.length > 0 && rows.length > 0) out.push('');
  for (const link of group.links) {
    const s: Sign = link.action === 'link' ? '+' : '-';
    out.push(`      ${paintSign(c, s)} ${link.action} ${link.relationship} → ${objectTitle(link.related)}`);
  }
  out.push('    }');
  return out;
}

/**
 * Renders a plan for a terminal.
 * @returns text ending in a newline; `No changes. ...` when the plan has no steps. Secrets
 *   are already masked in the plan and stay masked.
 */
export function renderText(plan: Plan, options: TextOptions): string {
  return [...renderTextChunks(plan, options)].join('');
}

/**
 * {@link renderText} in chunks of at most `CHUNK_SIZE` characters (src/render/json-chunks.ts)
 * cut between lines, each made when it is asked for: the text of a plan of 100,000 objects
 * never exists whole (nor its million lines as one array).
 */
export function renderTextChunks(plan: Plan, options: TextOptions): Generator<string> {
  return gatherChunks(renderTextLines(plan, options));
}

/**
 * The text of {@link renderText} in pieces made one at a time: a line, or an object's
 * block of lines, each with its newline.
 */
export function* renderTextLines(plan: Plan, options: TextOptions): Generator<string> {
  const c = pc.createColors(options.color);
  const line = (text: string): string => `${text}\n`;
  if (plan.steps.length === 0) {
    yield line(c.green(c.bold(NO_CHANGES)));
  } else {
    const used = new Set(plan.steps.map((s) => s.action));
    yield line('Object actions are indicated with the following symbols:');
    if (used.has('create') || used.has('link')) yield line(`  ${paintSign(c, '+')} create / link`);
    if (used.has('update')) yield line(`  ${paintSign(c, '~')} update in place`);
    if (used.has('delete') || used.has('unlink')) yield line(`  ${paintSign(c, '-')} destroy / unlink`);
    yield line(`\n${options.heading ?? 'gwops will perform the following actions:'}\n`);
    for (const group of groupSteps(plan)) yield line(`${renderGroup(group, c, options).join('\n')}\n`);
    yield line(c.bold(summaryLine(plan.summary)));
  }
  if (plan.unmanaged.length > 0) {
    const n = plan.unmanaged.length;
    yield line(
      `\n${n} object${n === 1 ? '' : 's'} inside the ownership scope ${n === 1 ? 'is' : 'are'} declared by no manifest (kept; --prune deletes ${n === 1 ? 'it' : 'them'}):`,
    );
    for (const ref of plan.unmanaged) yield line(`  ${c.yellow('?')} ${objectTitle(ref)}`);
  }
  // Differences kept by drift.ignore entries in force (src/render/ignored.ts).
  if (plan.ignored && plan.ignored.length > 0) {
    yield line(`\n${keptHeading(plan.ignored.length)}`);
    for (const kept of plan.ignored) yield line(`  ${c.yellow('=')} ${keptLine(kept)}`);
  }
}
