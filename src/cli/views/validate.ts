/**
 * The view of `gwops validate`, chosen once from `--format`: every diagnostic in the text
 * format (then a line saying how many documents are valid), as the JSON document of the
 * diagnostics, or as GitHub Actions annotations; all on stdout.
 */
import type { DiagnosticFormat, LoadResult } from '../../manifest/index.js';
import { formatDiagnostics, hasErrors } from '../../manifest/index.js';
import { colorEnabled } from '../color.js';
import type { CliIO } from '../io.js';

/** The view of `gwops validate`. */
export interface ValidateView {
  /** The diagnostics of the loaded manifests. */
  diagnostics(result: Pick<LoadResult, 'diagnostics' | 'documents' | 'variant'>): void;
}

/** Text: one line per diagnostic and the counts, then, without errors, how many documents are valid. */
function textView(io: CliIO): ValidateView {
  return {
    diagnostics(result) {
      io.stdout.write(formatDiagnostics(result.diagnostics, 'text', { color: colorEnabled(io) }));
      if (hasErrors(result.diagnostics)) return;
      const n = result.documents.length;
      io.stdout.write(`${n} document${n === 1 ? '' : 's'} valid (variant ${result.variant})\n`);
    },
  };
}

/** JSON or GitHub annotations: the diagnostics only. */
function dataView(format: 'json' | 'github', io: CliIO): ValidateView {
  return { diagnostics: (result) => void io.stdout.write(formatDiagnostics(result.diagnostics, format)) };
}

/** The view of `gwops validate` in `format`. */
export function validateView(format: DiagnosticFormat, io: CliIO): ValidateView {
  switch (format) {
    case 'text':
      return textView(io);
    case 'json':
    case 'github':
      return dataView(format, io);
  }
}
