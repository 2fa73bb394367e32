/**
 * The action of `gwops init [DIR]` (the wiring is in init.ts): a project that validates as
 * it stands, added to what DIR holds (src/operations/init.ts decides per file). It writes
 * the commented templates of `templates/init/` (a project file with one target and an
 * ownership scope to adapt, one example manifest, a `.gitignore`, a GitHub workflow that
 * uses the gwops action), or with `--from-gateway` the manifests and project file that
 * `gwops export` writes from a live gateway plus the `.gitignore` and the workflow (and the
 * example manifest when the gateway holds nothing to export, so that the project
 * validates). Nothing that exists is ever replaced: `.gitignore` gets the lines it lacks,
 * other files that exist are kept, and the run says what it did with each.
 */
import { join, relative, resolve } from 'node:path';
import { UsageError, WriteInterruptedError } from '../../errors.js';
import { guardInterrupts } from '../../staged-files.js';
import type { ExportLayout } from '../../export/index.js';
import { runExport } from '../../operations/export.js';
import type { InitFile } from '../../operations/init.js';
import { EXAMPLE, MANIFESTS, exampleFile, surveyInit, writeInitFile } from '../../operations/init.js';
import { PROJECT_FILE } from '../../manifest/index.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import { EXIT } from '../../exit-codes.js';
import type { CliIO } from '../io.js';
import { givenKindOptions, subResourceKinds } from '../kind-options.js';
import { renderNotExported, renderOtherWarnings } from '../views/export.js';
import { renderInit } from '../views/init.js';

/** Flags of `gwops init`, as commander parses them. */
export interface InitFlags extends ConnectionFlags {
  fromGateway?: boolean;
  kind?: string[];
  filter?: string[];
  layout: ExportLayout;
  // The kinds' options (`--deny-rule-use`, ...) are read by src/cli/kind-options.ts.
}

/**
 * `gwops init`. Writes the written paths (relative to the current directory) on stdout,
 * what it did with each file and what to do next on stderr.
 * @returns the exit code
 * @throws ConfigError naming a file that cannot be written (nothing is written then), or
 *   with --from-gateway a project file or manifests that exist; UsageError for export
 *   options without --from-gateway; what `gwops export` throws
 */
export async function initAction(dir: string | undefined, flags: InitFlags, io: CliIO): Promise<number> {
  const root = resolve(io.cwd, dir ?? '.');
  const fromGateway = flags.fromGateway === true;
  const given: readonly [unknown, string][] = [
    [flags.config, '--config'],
    [flags.target, '--target'],
    [flags.url, '--url'],
    [flags.apiKeyFile, '--api-key-file'],
    [flags.caFile, '--ca-file'],
    [flags.insecure, '--insecure'],
    [flags.timeout, '--timeout'],
    [flags.variant, '--variant'],
    [flags.kind, '--kind'],
    [flags.filter, '--filter'],
  ];
  const exportOnly = [...given.filter(([value]) => value !== undefined).map(([, option]) => option), ...givenKindOptions(flags)];
  if (!fromGateway && exportOnly.length > 0) throw new UsageError(`${exportOnly.join(', ')} only with --from-gateway`);

  const files: InitFile[] = await surveyInit({ root, fromGateway, label: dir ?? '.' });
  const exported: string[] = [];
  // A signal while the files are written ends the run once they all are (the export's own are swapped in whole or not at all).
  const held = guardInterrupts('the project');
  if (fromGateway) {
    const result = await runExport({
      ...gatewayInput(flags, io),
      out: join(root, MANIFESTS),
      projectDir: root,
      kinds: flags.kind,
      filters: flags.filter,
      layout: flags.layout,
      keepDefaults: false,
      force: false,
      subResources: subResourceKinds(flags),
      progress: (message) => void io.stderr.write(`${message}\n`),
    });
    exported.push(...result.files.map((f) => join(result.dir, f)));
    // What the export did not write and why, as `gwops export` ends.
    io.stderr.write(renderOtherWarnings(result));
    io.stderr.write(renderNotExported(result));
    if (Object.values(result.counts).every((n) => n === undefined || n === 0)) {
      // Nothing to export: a project without manifests would not validate, so it starts from the example.
      files.unshift(exampleFile(root));
      io.stderr.write(`The gateway holds no object to export; ${EXAMPLE} is the example of gwops init to start from.\n`);
    }
  }
  for (const file of files) await writeInitFile(file);
  held.release();
  if (held.signal !== undefined) throw new WriteInterruptedError(held.signal, 'complete', 'the project');
  io.stdout.write(exported.map((f) => `${relative(io.cwd, f) || f}\n`).join(''));
  renderInit(files, join(root, PROJECT_FILE), io);
  return EXIT.ok;
}
