/**
 * The action of `gwops init [DIR]` (the wiring is in command.ts): the init operation
 * (src/operations/init.ts) on the command's arguments. It writes the commented templates
 * of `templates/init/` (a project file with one target and an ownership scope to adapt,
 * one example manifest, a `.gitignore`, a GitHub workflow that uses the gwops action), or
 * with `--from-gateway` the manifests and project file that `gwops export` writes from a
 * live gateway plus the `.gitignore` and the workflow. Nothing that exists is ever
 * replaced, and the run says what it did with each file.
 */
import { relative, resolve } from 'node:path';
import { UsageError } from '../../../core/errors.js';
import type { ExportLayout } from '../../../export/index.js';
import { EXAMPLE, runInit } from '../../../operations/init.js';
import type { ConnectionFlags } from '../../connection-flags.js';
import { gatewayInput } from '../../connection-flags.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CliIO } from '../../io.js';
import { givenKindOptions, subResourceKinds } from '../../kind-options.js';
import { renderNotExported, renderOtherWarnings } from '../export/view.js';
import { renderInit } from './view.js';

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

  const result = await runInit({
    root,
    label: dir ?? '.',
    fromGateway: fromGateway
      ? {
          ...gatewayInput(flags, io),
          kinds: flags.kind,
          filters: flags.filter,
          layout: flags.layout,
          keepDefaults: false,
          force: false,
          subResources: subResourceKinds(flags),
          progress: (message) => void io.stderr.write(`${message}\n`),
        }
      : undefined,
    onExported: (exported, fromExample) => {
      // What the export did not write and why, as `gwops export` ends.
      io.stderr.write(renderOtherWarnings(exported));
      io.stderr.write(renderNotExported(exported));
      if (fromExample) io.stderr.write(`The gateway holds no object to export; ${EXAMPLE} is the example of gwops init to start from.\n`);
    },
  });
  io.stdout.write(result.exported.map((f) => `${relative(io.cwd, f) || f}\n`).join(''));
  renderInit(result.files, result.projectFile, io);
  return EXIT.ok;
}
