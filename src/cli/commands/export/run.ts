/**
 * The action of `gwops export` (loaded only when it runs; the wiring is in export.ts): run
 * the use case, print what it wrote. The written files (or, with `--format json`, one JSON
 * document with the files and the secrets table) go to stdout; progress (src/cli/progress.ts), warnings and the
 * secrets table go to stderr. No secret value is ever printed or written: only the names
 * of the environment variables the manifests read them from.
 */
import type { ExportLayout } from '../../../export/index.js';
import { runExport } from '../../../operations/export.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { ConnectionFlags } from '../../connection-flags.js';
import { gatewayInput } from '../../connection-flags.js';
import type { CliIO } from '../../io.js';
import { exportView } from './view.js';
import type { ProgressReporter } from '../../../engine/progress.js';
import { subResourceKinds } from '../../kind-options.js';

/** Flags of `gwops export`, as commander parses them. */
export interface ExportFlags extends ConnectionFlags {
  out?: string;
  kind?: string[];
  filter?: string[];
  layout: ExportLayout;
  keepDefaults?: boolean;
  force?: boolean;
  // The kinds' options (`--deny-rule-use`, ...) are read by src/cli/kind-options.ts.
  format: 'text' | 'json';
  /** No progress on stderr. */
  quiet?: boolean;
}

/** `gwops export`. @returns the exit code */
export async function exportAction(flags: ExportFlags, io: CliIO, progress?: ProgressReporter): Promise<number> {
  const view = exportView(flags.format, io);
  const result = await runExport({
    ...gatewayInput(flags, io),
    out: flags.out,
    kinds: flags.kind,
    filters: flags.filter,
    layout: flags.layout,
    keepDefaults: flags.keepDefaults === true,
    force: flags.force === true,
    subResources: subResourceKinds(flags),
    progress: (message) => progress?.phase(message.charAt(0).toLowerCase() + message.slice(1)),
  });
  view.exported(result);
  return EXIT.ok;
}
