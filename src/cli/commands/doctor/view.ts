/**
 * The view of `gwops doctor`, chosen once from `--format`: a report in lines (text), a
 * markdown report (for a job summary or an issue), or one JSON document. Text from the
 * gateway (its version, the answers it gave, attribute names of its description) is
 * inert: escaped in text, code spans in markdown.
 */
import { escapeInvisible } from '../../../core/display.js';
import { jsonDocument } from '../../../core/json-document.js';
import type { AttributeDifference } from '../../../engine/api-description.js';
import type { DoctorReport, KindCheck } from '../../../operations/doctor.js';
import { codeCell, codeSpan } from '../../../render/markdown-text.js';
import { renderTable } from '../../../render/table.js';
import type { CliIO } from '../../io.js';

/** Version of the document of `doctor --format json` (src/core/json-document.ts). */
export const DOCTOR_FORMAT_VERSION = '1.0';

/** The formats of `gwops doctor --format`. */
export type DoctorFormat = 'text' | 'markdown' | 'json';

/** The view of `gwops doctor`. */
export interface DoctorView {
  /** The report and its problems (doctorProblems: empty when gwops fits the gateway). */
  report(report: DoctorReport, problems: readonly string[]): void;
}

/** What a difference means for gwops, in words. */
const MEANING: Record<AttributeDifference['kind'], string> = {
  unmanaged: 'the gateway has it, gwops does not manage it: it stays unmanaged',
  unknown: 'gwops would send it, the gateway does not know it: it would be refused',
  type: 'the types differ: a value gwops sends would be refused',
};

function writeWords(report: DoctorReport): string {
  const { allowed } = report.write;
  return allowed === true ? 'yes' : allowed === false ? 'no (a read-only key: plan --no-server-check and drift work, apply does not)' : 'unknown';
}

function collectionWords(check: KindCheck): string {
  return check.problem !== undefined ? `no (${check.problem})` : `yes, ${check.objects ?? 0} object${check.objects === 1 ? '' : 's'}`;
}

function describedWords(check: KindCheck): string {
  if (check.described === undefined) return '-';
  if (!check.described) return 'not described';
  const counts = (['unknown', 'type', 'unmanaged'] as const).map((k) => [k, check.differences.filter((d) => d.kind === k).length] as const).filter(([, n]) => n > 0);
  return counts.length === 0 ? 'matches' : counts.map(([k, n]) => `${n} ${k}`).join(', ');
}

function typesWords(d: AttributeDifference): string {
  if (d.kind === 'type') return `gwops ${d.gwops.join('|')}, gateway ${d.gateway.join('|')}`;
  const types = d.kind === 'unknown' ? d.gwops : d.gateway;
  return types.length > 0 ? types.join('|') : 'any type';
}

/** The report as lines and tables. */
export function doctorText(report: DoctorReport, problems: readonly string[]): string {
  const lines = [
    `Gateway:     ${report.url}${report.target !== undefined ? ` (target ${report.target})` : ''}`,
    `Version:     ${report.version === undefined ? 'none reported (a 7.x gateway)' : escapeInvisible(report.version)}`,
    `Variant:     ${report.variant}${report.declaredVariant ? ` (${report.declaredVariant.source}: ${report.declaredVariant.variant})` : ''}`,
    `May write:   ${writeWords(report)}: ${escapeInvisible(report.write.evidence)}`,
    `Description: ${report.description.served ? 'served' : `not served (${escapeInvisible(report.description.evidence ?? '')})`}`,
    '',
    renderTable([['KIND', 'COLLECTION', 'ANSWERS', 'DESCRIPTION'], ...report.kinds.map((c) => [c.kind, c.collection, escapeInvisible(collectionWords(c)), describedWords(c)])]).trimEnd(),
  ];
  const differences = report.kinds.flatMap((c) => c.differences.map((d) => [c.kind, d.kind, escapeInvisible(d.path), escapeInvisible(typesWords(d)), MEANING[d.kind]]));
  if (differences.length > 0) lines.push('', 'Differences between the gateway\'s description and gwops:', renderTable([['KIND', 'DIFFERENCE', 'ATTRIBUTE', 'TYPE', 'MEANING'], ...differences]).trimEnd());
  lines.push('', problems.length === 0 ? 'gwops fits this gateway.' : `${problems.length} problem${problems.length === 1 ? '' : 's'}:`, ...problems.map((p) => `  - ${escapeInvisible(p)}`));
  return `${lines.join('\n')}\n`;
}

/** The report as GitHub-flavoured markdown; every text from the gateway in a code span. */
export function doctorMarkdown(report: DoctorReport, problems: readonly string[]): string {
  const lines = [
    '## gwops doctor',
    '',
    `- Gateway: ${codeSpan(report.url)}${report.target !== undefined ? ` (target ${codeSpan(report.target)})` : ''}`,
    `- Version: ${report.version === undefined ? 'none reported (a 7.x gateway)' : codeSpan(report.version)}`,
    `- Variant: ${report.variant}${report.declaredVariant ? ` (${codeSpan(report.declaredVariant.source)}: ${report.declaredVariant.variant})` : ''}`,
    `- May write: ${writeWords(report)}: ${codeSpan(report.write.evidence)}`,
    `- Description: ${report.description.served ? 'served' : `not served (${codeSpan(report.description.evidence ?? '')})`}`,
    '',
    '| Kind | Collection | Answers | Description |',
    '|---|---|---|---|',
    ...report.kinds.map((c) => `| ${c.kind} | ${codeCell(c.collection)} | ${c.problem !== undefined ? `no (${codeCell(c.problem)})` : collectionWords(c)} | ${describedWords(c)} |`),
  ];
  const differences = report.kinds.flatMap((c) => c.differences.map((d) => `| ${c.kind} | ${d.kind} | ${codeCell(d.path)} | ${codeCell(typesWords(d))} | ${MEANING[d.kind]} |`));
  if (differences.length > 0) lines.push('', '### Differences', '', '| Kind | Difference | Attribute | Type | Meaning |', '|---|---|---|---|---|', ...differences);
  lines.push('', problems.length === 0 ? '**gwops fits this gateway.**' : `### ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  if (problems.length > 0) lines.push('', ...problems.map((p) => `- ${codeSpan(p)}`));
  return `${lines.join('\n')}\n`;
}

/** The report as the JSON document's body. */
export function doctorJson(report: DoctorReport, problems: readonly string[]): Record<string, unknown> {
  return {
    url: report.url,
    target: report.target ?? null,
    version: report.version ?? null,
    variant: report.variant,
    declaredVariant: report.declaredVariant ?? null,
    write: { allowed: report.write.allowed ?? null, evidence: report.write.evidence },
    description: { served: report.description.served, evidence: report.description.evidence ?? null },
    kinds: report.kinds.map((c) => ({ kind: c.kind, collection: c.collection, answers: c.problem === undefined, objects: c.objects ?? null, problem: c.problem ?? null, described: c.described ?? null, differences: c.differences })),
    problems,
  };
}

/** The view of `gwops doctor` in `format`. */
export function doctorView(format: DoctorFormat, io: CliIO): DoctorView {
  switch (format) {
    case 'json':
      return { report: (report, problems) => void io.stdout.write(jsonDocument(DOCTOR_FORMAT_VERSION, doctorJson(report, problems))) };
    case 'markdown':
      return { report: (report, problems) => void io.stdout.write(doctorMarkdown(report, problems)) };
    case 'text':
      return { report: (report, problems) => void io.stdout.write(doctorText(report, problems)) };
  }
}
