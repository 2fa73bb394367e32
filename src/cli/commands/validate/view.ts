/**
 * The view of `gwops validate`, chosen once from `--format`: every diagnostic in the text
 * format (then a line saying how many documents are valid), as the JSON document of the
 * diagnostics, or as GitHub Actions annotations; all on stdout.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Diagnostic, DiagnosticFormat, LoadResult } from '../../../manifest/index.js';
import { formatDiagnostics, hasErrors } from '../../../manifest/index.js';
import { colorEnabled } from '../../color.js';
import type { CliIO } from '../../io.js';

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

/**
 * The diagnostics of `--format github` with each manifest path given from the root of the
 * repository: GitHub reads an annotation's `file=` relative to GITHUB_WORKSPACE, whatever
 * directory the step ran in (the action's `working-directory`). A path stays as it is
 * outside Actions (no GITHUB_WORKSPACE), for stdin (`-`) and for a file outside the
 * workspace. Separators are `/`.
 */
export function annotationPaths(diagnostics: readonly Diagnostic[], cwd: string, workspace: string | undefined): Diagnostic[] {
  if (workspace === undefined || workspace === '') return [...diagnostics];
  const root = resolve(cwd, workspace);
  return diagnostics.map((d) => {
    if (d.file === undefined || d.file === '-') return d;
    const fromRoot = relative(root, resolve(cwd, d.file));
    if (fromRoot === '' || fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot)) return d;
    return { ...d, file: fromRoot.split(sep).join('/') };
  });
}

/** JSON or GitHub annotations: the diagnostics only (annotations with paths from the repository root). */
function dataView(format: 'json' | 'github', io: CliIO): ValidateView {
  return {
    diagnostics: (result) => {
      const shown = format === 'github' ? annotationPaths(result.diagnostics, io.cwd, io.env.GITHUB_WORKSPACE) : result.diagnostics;
      io.stdout.write(formatDiagnostics(shown, format));
    },
  };
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
