/**
 * The view of `gwops export`, chosen once from `--format`: the written files on stdout, one
 * a line (text), or one JSON document with the files, the secrets and the warnings. In
 * every format the summary and the secrets table (names of environment variables only,
 * never a value) go to stderr.
 */
import { join } from 'node:path';
import { jsonDocument } from '../../json-document.js';
import type { ExportResult } from '../../operations/export.js';
import { renderTable } from '../../render/table.js';
import type { CliIO } from '../io.js';

/** Version of the document of `export --format json` (src/json-document.ts). */
export const EXPORT_FORMAT_VERSION = '1.0';

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

/** On stderr in every format: the warnings, how many objects of which kinds went where, then the secrets table. */
function summary(result: ExportResult, io: CliIO): void {
  for (const warning of result.warnings) io.stderr.write(`Warning: ${warning}\n`);
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  const perKind = Object.entries(result.counts).map(([kind, count]) => `${count} ${kind}`).join(', ');
  io.stderr.write(`Exported ${total} object${total === 1 ? '' : 's'}${perKind ? ` (${perKind})` : ''} to ${result.dir}${result.projectWritten ? '' : ' (the existing gwops.yaml was kept)'}\n`);
  io.stderr.write(renderSecretsTable(result));
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
