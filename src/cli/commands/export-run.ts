/**
 * The action of `gwops export` (loaded only when it runs; the wiring is in export.ts): run
 * the use case, print what it wrote. The written files (or, with `--format json`, one JSON
 * document with the files and the secrets table) go to stdout; progress (src/cli/progress.ts), warnings and the
 * secrets table go to stderr. No secret value is ever printed or written: only the names
 * of the environment variables the manifests read them from.
 */
import { join } from 'node:path';
import type { ExportLayout } from '../../export/index.js';
import type { ExportResult } from '../../operations/export.js';
import { runExport } from '../../operations/export.js';
import { EXIT } from '../../exit-codes.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import type { CliIO } from '../io.js';
import type { ProgressReporter } from '../../engine/progress.js';

/** Flags of `gwops export`, as commander parses them. */
export interface ExportFlags extends ConnectionFlags {
  out?: string;
  kind?: string[];
  filter?: string[];
  layout: ExportLayout;
  keepDefaults?: boolean;
  force?: boolean;
  format: 'text' | 'json';
  /** No progress on stderr. */
  quiet?: boolean;
}

/** The secrets table: one row per environment variable (names only). */
export function renderSecretsTable(result: Pick<ExportResult, 'secrets'>): string {
  if (result.secrets.length === 0) return '';
  const rows = result.secrets.map((s) => [s.variable, `${s.kind} '${s.name}'`, s.attribute + (s.writeOnly ? ' (write-only)' : ' (readable: set the live value)')]);
  const header = ['Environment variable', 'Object', 'Attribute'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [
    '\nThe manifests read these secrets from environment variables (no value was written; see secrets.env.example):',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
  ].join('\n');
}

/** `gwops export`. @returns the exit code */
export async function exportAction(flags: ExportFlags, io: CliIO, progress?: ProgressReporter): Promise<number> {
  const result = await runExport({
    ...gatewayInput(flags, io),
    out: flags.out,
    kinds: flags.kind,
    filters: flags.filter,
    layout: flags.layout,
    keepDefaults: flags.keepDefaults === true,
    force: flags.force === true,
    progress: (message) => progress?.phase(message.charAt(0).toLowerCase() + message.slice(1)),
  });
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  const perKind = Object.entries(result.counts).map(([kind, count]) => `${count} ${kind}`).join(', ');
  io.stderr.write(`Exported ${total} object${total === 1 ? '' : 's'}${perKind ? ` (${perKind})` : ''} to ${result.dir}${result.projectWritten ? '' : ' (the existing gwops.yaml was kept)'}\n`);
  io.stderr.write(renderSecretsTable(result));
  if (flags.format === 'json') {
    const document = {
      dir: result.dir,
      files: result.files.map((f) => join(result.dir, f)),
      secrets: result.secrets.map((s) => ({ variable: s.variable, kind: s.kind, name: s.name, attribute: s.attribute, writeOnly: s.writeOnly })),
      warnings: result.warnings,
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    io.stdout.write(result.files.map((f) => `${join(result.dir, f)}\n`).join(''));
  }
  return EXIT.ok;
}
