/**
 * The view of `gwops export`, chosen once from `--format`: the written files on stdout, one
 * a line (text), or one JSON document with the files, the secrets and the warnings. In
 * every format the summary and the secrets table (names of environment variables only,
 * never a value) go to stderr.
 */
import { join } from 'node:path';
import { jsonDocument } from '../../../core/json-document.js';
import type { ExportResult } from '../../../operations/export.js';
import { renderTable } from '../../../render/table.js';
import type { CliIO } from '../../io.js';

/** Version of the document of `export --format json` (src/core/json-document.ts). */
export const EXPORT_FORMAT_VERSION = '1.1';

/** The view of `gwops export`. */
export interface ExportView {
  /** What the export wrote. */
  exported(result: ExportResult): void;
}

/** The secrets table: one row per environment variable (names only). */
export function renderSecretsTable(result: Pick<ExportResult, 'secrets'>): string {
  if (result.secrets.length === 0) return '';
  const rows = result.secrets.map((s) => [s.variable, `${s.kind} '${s.name}'`, s.attribute + (s.writeOnly ? ' (write-only)' : ' (readable: set the live value)')]);
  const header = ['Environment variable', 'Object', 'Attribute'];
  return `\nThe manifests read these secrets from environment variables (no value was written; see secrets.env.example):\n${renderTable([header, ...rows], { rule: true })}`;
}

/**
 * What an export did not write and why ({@link ExportResult.notExported}, warnings included),
 * the last part of its summary: a heading and one line each.
 */
export function renderNotExported(result: Pick<ExportResult, 'notExported'>): string {
  if (result.notExported.length === 0) return '\nNot exported: nothing, the manifests hold everything gwops can declare.\n';
  return `\nNot exported:\n${result.notExported.map((line) => `  - ${line}\n`).join('')}`;
}

/**
 * The warnings of an export that are not about something left out (a file written under
 * another name, an earlier killed export completed), one `warning:` line each.
 */
export function renderOtherWarnings(result: Pick<ExportResult, 'warnings' | 'notExported'>): string {
  const listed = new Set(result.notExported);
  return result.warnings.filter((w) => !listed.has(w)).map((w) => `warning: ${w}\n`).join('');
}

/** On stderr in every format: how many objects of which kinds went where, the secrets table, the files written under another name, then what was not exported and why (the other warnings among it). */
function summary(result: ExportResult, io: CliIO): void {
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  const perKind = Object.entries(result.counts).map(([kind, count]) => `${count} ${kind}`).join(', ');
  io.stderr.write(`Exported ${total} object${total === 1 ? '' : 's'}${perKind ? ` (${perKind})` : ''} to ${result.dir}${result.projectWritten ? '' : ' (the existing gwops.yaml was kept)'}\n`);
  io.stderr.write(renderSecretsTable(result));
  io.stderr.write(renderOtherWarnings(result));
  io.stderr.write(renderNotExported(result));
}

/** The view of `gwops export` in `format`. */
export function exportView(format: 'text' | 'json', io: CliIO): ExportView {
  switch (format) {
    case 'json':
      return {
        exported(result) {
          summary(result, io);
          const document = {
            dir: result.dir,
            files: result.files.map((f) => join(result.dir, f)),
            secrets: result.secrets.map((s) => ({ variable: s.variable, kind: s.kind, name: s.name, attribute: s.attribute, writeOnly: s.writeOnly })),
            warnings: result.warnings,
            notExported: result.notExported,
          };
          io.stdout.write(jsonDocument(EXPORT_FORMAT_VERSION, document));
        },
      };
    case 'text':
      return {
        exported(result) {
          summary(result, io);
          io.stdout.write(result.files.map((f) => `${join(result.dir, f)}\n`).join(''));
        },
      };
  }
}
