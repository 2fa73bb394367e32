/**
 * The output formats of diagnostics (src/core/diagnostics.ts): the one formatter that prints
 * every problem gwops reports in text, JSON and GitHub annotations, for `gwops validate`,
 * `plan`, `apply` and `drift`. Like the diagnostics themselves, it sits at the bottom of
 * the dependency graph.
 */
import pc from 'picocolors';
import type { Diagnostic, DiagnosticObject, DiagnosticSeverity } from './diagnostics.js';
import { countDiagnostics } from './diagnostics.js';
import { escapeInvisible } from './display.js';
import { jsonDocument } from './json-document.js';

/** Output formats of {@link formatDiagnostics}. */
export type DiagnosticFormat = 'text' | 'json' | 'github';

/**
 * Version of the `json` format; raised on any incompatible change. (Diagnostics without a
 * location, with an `object`, or of severity `info` are additions of the same version:
 * manifest diagnostics read exactly as before.)
 */
export const DIAGNOSTICS_FORMAT_VERSION = '1.0';

/** `kind 'name'`, how messages name an object. */
function objectLabel(object: DiagnosticObject): string {
  return `${object.kind} '${object.name}'`;
}

/** `file:line:column` of a located diagnostic. */
export function diagnosticPosition(d: Diagnostic): string | undefined {
  return d.file === undefined ? undefined : `${d.file}:${d.line}:${d.column}`;
}

/**
 * One diagnostic as a JSON value with a stable key order: `severity`, `code`, then
 * `file`, `line`, `column`, `pointer`, `object` when present, and `message`. The element
 * of `diagnostics` in every JSON output of gwops (validate, and plan, apply and drift).
 */
export function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  return {
    severity: d.severity,
    code: d.code,
    ...(d.file !== undefined ? { file: d.file, line: d.line, column: d.column } : {}),
    ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
    ...(d.object !== undefined ? { object: { kind: d.object.kind, name: d.object.name } } : {}),
    message: d.message,
  };
}

/**
 * Escapes a value for a GitHub Actions workflow command property or message (line breaks
 * as `%0A`, which GitHub shows inside the annotation; other invisible characters as their
 * visible escapes, src/core/display.ts).
 */
function githubEscape(text: string, property: boolean): string {
  let out = escapeInvisible(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
  if (property) out = out.replace(/:/g, '%3A').replace(/,/g, '%2C');
  return out;
}

/** The GitHub annotation level of a severity (`notice` is GitHub's word for info). */
const GITHUB_LEVEL: Readonly<Record<DiagnosticSeverity, string>> = { error: 'error', warning: 'warning', info: 'notice' };

/**
 * One diagnostic as one line of the `text` format (without the newline):
 * `file:line:col: severity: message [code]`. Without a location the object it is about
 * takes the place of the position (`mapping 'shop': severity: ...`), and without either
 * the line starts with the severity.
 */
export function formatDiagnosticLine(d: Diagnostic, options: { color?: boolean } = {}): string {
  const c = pc.createColors(options.color === true);
  const severity = d.severity === 'error' ? c.red('error') : d.severity === 'warning' ? c.yellow('warning') : c.blue('info');
  const where = diagnosticPosition(d) ?? (d.object ? objectLabel(d.object) : undefined);
  // Names and the gateway's text inside stay on this line (src/core/display.ts).
  return `${where !== undefined ? `${c.bold(escapeInvisible(where))}: ` : ''}${severity}: ${escapeInvisible(d.message)} ${c.dim(`[${escapeInvisible(d.code)}]`)}`;
}

/** The summary line of the `text` format: `2 errors, 1 warning` (and `, 3 info` when there are any). */
export function diagnosticsSummary(diagnostics: readonly Diagnostic[]): string {
  const counts = countDiagnostics(diagnostics);
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}${counts.info > 0 ? `, ${counts.info} info` : ''}`;
}

/**
 * Formats diagnostics for output: the one formatter of every problem gwops reports.
 * - `text`: one line each ({@link formatDiagnosticLine}), then a summary line
 *   (`2 errors, 1 warning`) when there is anything to report; colours only with `color`.
 * - `json`: `{ formatVersion, valid, errorCount, warningCount, diagnostics: [...] }`, each
 *   element as {@link diagnosticJson}, pretty-printed. `valid` is true when no diagnostic
 *   is an error.
 * - `github`: GitHub Actions annotations, `::error file=F,line=L,col=C,title=CODE::message`
 *   (without a location no `file`, `line` and `col`, and the object named first; `info` is
 *   a `::notice`).
 * The input order is kept (callers pass sorted diagnostics).
 */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  format: DiagnosticFormat,
  options: { color?: boolean } = {},
): string {
  switch (format) {
    case 'json': {
      const counts = countDiagnostics(diagnostics);
      return jsonDocument(DIAGNOSTICS_FORMAT_VERSION, {
        valid: counts.error === 0,
        errorCount: counts.error,
        warningCount: counts.warning,
        diagnostics: diagnostics.map(diagnosticJson),
      });
    }
    case 'github':
      return diagnostics
        .map((d) => {
          const title = `title=${githubEscape(d.code, true)}`;
          const properties = d.file !== undefined ? `file=${githubEscape(d.file, true)},line=${d.line},col=${d.column},${title}` : title;
          const message = d.file === undefined && d.object ? `${objectLabel(d.object)}: ${d.message}` : d.message;
          return `::${GITHUB_LEVEL[d.severity]} ${properties}::${githubEscape(message, false)}\n`;
        })
        .join('');
    case 'text': {
      const lines = diagnostics.map((d) => `${formatDiagnosticLine(d, options)}\n`);
      if (diagnostics.length > 0) lines.push(`${diagnosticsSummary(diagnostics)}\n`);
      return lines.join('');
    }
  }
}
