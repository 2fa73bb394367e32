/**
 * Diagnostics of manifest validation: the one shape every problem is reported in, and the
 * three output formats of `gwops validate` (docs/architecture.md "Habits": file:line:column,
 * JSON pointer, what is wrong and what would be right; every problem at once).
 *
 * Messages never contain a value of an attribute marked `x-gwops-secret`: the code that
 * creates a diagnostic names attribute paths only.
 */
import pc from 'picocolors';

/**
 * Stable machine codes of diagnostics. Tests and CI scripts may rely on them; messages may
 * be reworded, codes may not.
 */
export type DiagnosticCode =
  | 'yaml-syntax'
  | 'invalid-encoding'
  | 'control-character'
  | 'duplicate-key'
  | 'not-an-object'
  | 'unknown-kind'
  | 'unknown-api-version'
  | 'missing-api-version'
  | 'missing-name'
  | 'name-mismatch'
  | 'unknown-key'
  | 'unknown-attribute'
  | 'unknown-relationship'
  | 'invalid-type'
  | 'invalid-value'
  | 'out-of-range'
  | 'invalid-secret'
  | 'to-one-list'
  | 'duplicate-link'
  | 'conflicting-link'
  | 'duplicate-object'
  | 'unresolved-link'
  | 'duplicate-priority'
  | 'invalid-regex'
  | 'http2-without-https'
  | 'certificate-mode-link'
  | 'variant-attribute'
  | 'variant-kind'
  | 'missing-template'
  | 'template-cycle'
  | 'extends-not-allowed'
  | 'unset-variable'
  | 'secret-unavailable'
  | 'literal-secret'
  | 'overlay-invalid'
  | 'overlay-target-missing'
  | 'overlay-patch-failed'
  | 'no-manifests';

/** One problem found in the manifests. */
export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  /** Stable machine code, e.g. `unknown-attribute`. */
  readonly code: DiagnosticCode;
  /** File as given on the command line or relative to the working directory; `-` for stdin. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
  /** JSON pointer (RFC 6901) inside the document, `''` for the document itself. */
  readonly pointer: string;
  /** What is wrong and what would be right. Never contains a secret value. */
  readonly message: string;
}

/** Output formats of {@link formatDiagnostics}. */
export type DiagnosticFormat = 'text' | 'json' | 'github';

/** Version of the `json` format; raised on any incompatible change. */
export const DIAGNOSTICS_FORMAT_VERSION = '1.0';

/** Orders diagnostics by file, line, column (then code, for a stable order). Returns a new array. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Escapes a value for a GitHub Actions workflow command property or message. */
function githubEscape(text: string, property: boolean): string {
  let out = text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  if (property) out = out.replace(/:/g, '%3A').replace(/,/g, '%2C');
  return out;
}

/**
 * Formats diagnostics for output.
 * - `text`: one line each, `file:line:col: severity: message [code]`, then a summary line
 *   (`2 errors, 1 warning`) when there is anything to report; colours only with `color`.
 * - `json`: `{ formatVersion, valid, errorCount, warningCount, diagnostics: [...] }`, stable
 *   key order, pretty-printed.
 * - `github`: GitHub Actions annotations, `::error file=F,line=L,col=C,title=CODE::message`.
 * The input order is kept (callers pass sorted diagnostics).
 */
export function formatDiagnostics(
  diagnostics: readonly Diagnostic[],
  format: DiagnosticFormat,
  options: { color?: boolean } = {},
): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  switch (format) {
    case 'json':
      return (
        JSON.stringify(
          {
            formatVersion: DIAGNOSTICS_FORMAT_VERSION,
            valid: errors === 0,
            errorCount: errors,
            warningCount: warnings,
            diagnostics: diagnostics.map((d) => ({
              severity: d.severity,
              code: d.code,
              file: d.file,
              line: d.line,
              column: d.column,
              pointer: d.pointer,
              message: d.message,
            })),
          },
          null,
          2,
        ) + '\n'
      );
    case 'github':
      return diagnostics
        .map(
          (d) =>
            `::${d.severity === 'error' ? 'error' : 'warning'} file=${githubEscape(d.file, true)},line=${d.line},col=${d.column},title=${githubEscape(d.code, true)}::${githubEscape(d.message, false)}\n`,
        )
        .join('');
    case 'text': {
      const c = pc.createColors(options.color === true);
      const lines = diagnostics.map((d) => {
        const severity = d.severity === 'error' ? c.red('error') : c.yellow('warning');
        return `${c.bold(`${d.file}:${d.line}:${d.column}`)}: ${severity}: ${d.message} ${c.dim(`[${d.code}]`)}\n`;
      });
      if (diagnostics.length > 0) {
        const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
        lines.push(`${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
      }
      return lines.join('');
    }
  }
}
