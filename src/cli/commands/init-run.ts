/**
 * The action of `gwops init [DIR]` (the wiring is in init.ts): a new project that
 * validates as it stands. It writes the commented templates of `templates/init/` (a
 * project file with one target and an ownership scope to adapt, one example manifest, a
 * `.gitignore`, a GitHub workflow that uses the gwops action), or with `--from-gateway`
 * the manifests and project file that `gwops export` writes from a live gateway plus the
 * `.gitignore` and the workflow (and the example manifest when the gateway holds nothing to
 * export, so that the project validates). Nothing that exists is ever overwritten: when any file it
 * would write exists, it writes nothing.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, UsageError, WriteInterruptedError } from '../../errors.js';
import { guardInterrupts } from '../../staged-files.js';
import { errnoWords } from '../../files.js';
import { writeProblem } from '../../out-paths.js';
import type { ExportLayout } from '../../export/index.js';
import { runExport } from '../../operations/export.js';
import { PROJECT_FILE } from '../../manifest/index.js';
import type { ConnectionFlags } from '../connection-flags.js';
import { gatewayInput } from '../connection-flags.js';
import { EXIT } from '../../exit-codes.js';
import type { CliIO } from '../io.js';
import { renderNotExported, renderOtherWarnings } from '../views/export.js';

/** Flags of `gwops init`, as commander parses them. */
export interface InitFlags extends ConnectionFlags {
  fromGateway?: boolean;
  kind?: string[];
  filter?: string[];
  layout: ExportLayout;
  /** True with `--deny-rule-use`, false with `--no-deny-rule-use`, undefined (read) by default. */
  denyRuleUse?: boolean;
}

/** The folder of the templates (shipped with the package, next to dist/). */
const TEMPLATES = fileURLToPath(new URL('../../../templates/init/', import.meta.url));

/** The manifests folder of a new project. */
const MANIFESTS = 'manifests';

/** The example manifest of a new project. */
const EXAMPLE = join(MANIFESTS, 'example.yaml');

/** Template file → path in the project. */
const FILES: readonly (readonly [template: string, target: string])[] = [
  ['gwops.yaml', PROJECT_FILE],
  ['manifests/example.yaml', EXAMPLE],
  ['gitignore', '.gitignore'],
  ['workflow.yml', join('.github', 'workflows', 'gwops.yml')],
];

/** The files written in both modes (the project file and manifests come from export with --from-gateway). */
const ALWAYS: ReadonlySet<string> = new Set(['.gitignore', join('.github', 'workflows', 'gwops.yml')]);

/** Whether anything is at `path`, a symbolic link to nothing included (lstat). */
const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/**
 * `gwops init`. Writes the written paths (relative to the current directory) on stdout and
 * what to do next on stderr.
 * @returns the exit code
 * @throws ConfigError naming every path that exists (nothing is written then); UsageError
 *   for export options without --from-gateway; what `gwops export` throws
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
    [flags.denyRuleUse, flags.denyRuleUse === false ? '--no-deny-rule-use' : '--deny-rule-use'],
  ];
  const exportOnly = given.filter(([value]) => value !== undefined).map(([, option]) => option);
  if (!fromGateway && exportOnly.length > 0) throw new UsageError(`${exportOnly.join(', ')} only with --from-gateway`);

  const files: (readonly [string, string])[] = FILES.filter(([, target]) => !fromGateway || ALWAYS.has(target));
  const rootProblem = await writeProblem(root, 'directory');
  if (rootProblem !== undefined) throw new ConfigError(`gwops init cannot write into ${dir ?? '.'}: ${rootProblem}; nothing was written`);
  for (const [, target] of files) {
    const problem = (await exists(join(root, target))) ? undefined : await writeProblem(join(root, target), 'file');
    if (problem !== undefined) throw new ConfigError(`gwops init cannot write ${target}: ${problem}; nothing was written`);
  }
  const taken: string[] = [];
  for (const [, target] of files) if (await exists(join(root, target))) taken.push(target);
  if (fromGateway) {
    if (await exists(join(root, PROJECT_FILE))) taken.push(PROJECT_FILE);
    const manifests = join(root, MANIFESTS);
    if ((await exists(manifests)) && (await readdir(manifests).catch(() => ['(not a directory)'])).length > 0) taken.push(`${MANIFESTS}/`);
  }
  if (taken.length > 0) {
    throw new ConfigError(`gwops init never overwrites anything, and ${root} already has ${taken.join(', ')}; nothing was written: choose another directory or move them away`);
  }

  const written: string[] = [];
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
      subResources: flags.denyRuleUse !== false,
      progress: (message) => void io.stderr.write(`${message}\n`),
    });
    written.push(...result.files.map((f) => join(result.dir, f)));
    // What the export did not write and why, as `gwops export` ends.
    io.stderr.write(renderOtherWarnings(result));
    io.stderr.write(renderNotExported(result));
    if (Object.values(result.counts).every((n) => n === undefined || n === 0)) {
      // Nothing to export: a project without manifests would not validate, so it starts from the example.
      files.push(...FILES.filter(([, target]) => target === EXAMPLE));
      io.stderr.write(`The gateway holds no object to export; ${EXAMPLE} is the example of gwops init to start from.\n`);
    }
  }
  for (const [template, target] of files) {
    const full = join(root, target);
    try {
      await mkdir(dirname(full), { recursive: true });
      // COPYFILE_EXCL: a file that appeared meanwhile is not overwritten either.
      await copyFile(join(TEMPLATES, template), full, constants.COPYFILE_EXCL);
    } catch (error) {
      throw new ConfigError(`gwops init cannot write ${relative(io.cwd, full) || full}: ${errnoWords(error)}`, { cause: error });
    }
    written.push(full);
  }
  held.release();
  if (held.signal !== undefined) throw new WriteInterruptedError(held.signal, 'complete', 'the project');
  io.stdout.write(written.map((f) => `${relative(io.cwd, f) || f}\n`).join(''));
  const at = relative(io.cwd, root);
  io.stderr.write(
    `\nProject written${at ? ` in ${at}` : ''}. Next: adapt the target and the ownership scope in ${PROJECT_FILE}, ` +
      'set GWOPS_API_KEY, then run gwops validate and gwops plan; ' +
      'replace your-org in .github/workflows/gwops.yml with the owner of the gwops action.\n',
  );
  return EXIT.ok;
}
