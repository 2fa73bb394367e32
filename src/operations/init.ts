/**
 * The files of `gwops init` (README.md "Commands", docs/adoption-guide.md "In an existing
 * repository"): what it does with each of them in a directory that may already
 * hold some, and the writes. A file that exists is never replaced: `.gitignore` gets the
 * lines it lacks appended, every other file is kept as it is. The workflow goes to the
 * `.github/workflows/` of the Git repository's root, running gwops in the project's
 * directory (src/init/workflow.ts).
 */
import { constants } from 'node:fs';
import { appendFile, copyFile, lstat, mkdir, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ConfigError, FileReadError, WriteInterruptedError } from '../core/errors.js';
import { errnoWords, FILE_LIMITS, readFileBoundedAsync } from '../core/files.js';
import { gitignoreAddition } from '../init/gitignore.js';
import type { ProjectPath } from '../init/workflow.js';
import { WORKFLOW_PATH, workflowDirectoryProblem, workflowFor, workflowRunsIn } from '../init/workflow.js';
import { PROJECT_FILE } from '../manifest/index.js';
import { writeProblem } from '../core/out-paths.js';
import { guardInterrupts } from '../core/staged-files.js';
import type { ExportInput, ExportResult } from './export.js';
import { runExport } from './export.js';
import { gitTopLevel } from './steps/git-base.js';

/** The folder of the templates (shipped with the package, next to dist/). */
const TEMPLATES = fileURLToPath(new URL('../../templates/init/', import.meta.url));

/** The manifests folder of a new project. */
export const MANIFESTS = 'manifests';

/** The example manifest of a new project, relative to it. */
export const EXAMPLE = join(MANIFESTS, 'example.yaml');

/** What init does with one file. */
export type InitFileAction = 'created' | 'appended' | 'kept' | 'not-written';

/** Which of its files: the project file, the example manifest, `.gitignore`, the GitHub workflow. */
export type InitFileRole = 'project' | 'example' | 'gitignore' | 'workflow';

/** One file of `gwops init` and what is done with it. */
export interface InitFile {
  readonly role: InitFileRole;
  /** The file's absolute path. */
  readonly path: string;
  readonly action: InitFileAction;
  /** `appended`: the lines added. */
  readonly added?: readonly string[];
  /** Why (`kept`, `not-written`), or what the file does there (the workflow), in words. */
  readonly note?: string;
  /** What is written: the template file to copy, or the text (`created`); the text appended (`appended`). */
  readonly write?: { readonly template: string } | { readonly text: string };
}

/** What {@link surveyInit} is asked. */
export interface InitSurveyInput {
  /** The project's directory (absolute; created when missing). */
  readonly root: string;
  /** `--from-gateway`: the project file and manifests come from `gwops export`, not from the templates. */
  readonly fromGateway: boolean;
  /** The directory as the user named it, for messages. */
  readonly label: string;
}

/** Whether anything is at `path`, a symbolic link to nothing included (lstat). */
const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

/** Whether `dir` is a directory holding at least one entry. */
const holdsEntries = (dir: string): Promise<boolean> => readdir(dir).then(
  (entries) => entries.length > 0,
  () => false,
);

/** `path` with its nearest existing ancestor replaced by its real path (`path` itself when it exists). */
async function realPathOf(path: string): Promise<string> {
  let existing = path;
  for (;;) {
    const real = await realpath(existing).catch(() => undefined);
    if (real !== undefined) return join(real, relative(existing, path));
    const parent = dirname(existing);
    if (parent === existing) return path;
    existing = parent;
  }
}

/** The top of the Git work tree holding `dir` (absolute, real) and `dir` relative to it with `/` ('' for the top), or undefined outside one. */
async function placeInRepository(dir: string): Promise<{ top: string; sub: string } | undefined> {
  const real = await realPathOf(dir);
  let existing = real;
  while (!(await exists(existing)) && dirname(existing) !== existing) existing = dirname(existing);
  const top = await gitTopLevel(existing);
  if (top === undefined) return undefined;
  const sub = relative(top, real);
  if (sub.startsWith('..')) return undefined;
  return { top, sub: sub.split(sep).join('/') };
}

/** The `.gitignore` at `file`: created from the template, kept when it has every line, else the lines it lacks appended. */
async function gitignoreFile(file: string): Promise<InitFile> {
  const template = (await readFileBoundedAsync(join(TEMPLATES, 'gitignore'), FILE_LIMITS.bundled)).toString('utf8');
  if (!(await exists(file))) return { role: 'gitignore', path: file, action: 'created', write: { text: template } };
  let existing: Buffer;
  try {
    existing = await readFileBoundedAsync(file, FILE_LIMITS.gitignore);
  } catch (error) {
    if (error instanceof FileReadError) throw new ConfigError(`gwops init cannot add its lines to ${file}: ${error.problem}; nothing was written`, { cause: error });
    throw error;
  }
  const { added, text } = gitignoreAddition(existing.toString('utf8'), template);
  return added.length === 0 ? { role: 'gitignore', path: file, action: 'kept', note: 'it has every line gwops needs' } : { role: 'gitignore', path: file, action: 'appended', added, write: { text } };
}

/** The strings of `value`: itself when a string, its strings when a list, else none. */
const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * The files and folders the project file at `root` that exists already reads (itself, its
 * `manifests` and every target's `overlays`), relative to the repository's root `top`, for
 * the workflow's `paths:` filters; undefined when there is no such file or it cannot be
 * read as YAML (the template's filters are used then). A path outside the repository is
 * left out (no filter can name it); a missing one counts as a folder unless it ends in
 * `.yaml` or `.yml`.
 */
async function projectPaths(root: string, top: string): Promise<ProjectPath[] | undefined> {
  const file = join(root, PROJECT_FILE);
  let project: unknown;
  try {
    project = parse((await readFileBoundedAsync(file, FILE_LIMITS.project)).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof project !== 'object' || project === null) return undefined;
  const fields = project as { manifests?: unknown; targets?: unknown };
  const targets = typeof fields.targets === 'object' && fields.targets !== null ? Object.values(fields.targets) : [];
  const named = [...strings(fields.manifests), ...targets.flatMap((t) => strings(typeof t === 'object' && t !== null ? (t as { overlays?: unknown }).overlays : undefined))];
  const paths: ProjectPath[] = [{ path: relative(top, await realPathOf(file)).split(sep).join('/'), directory: false }];
  for (const entry of named) {
    const full = await realPathOf(resolve(root, entry));
    const path = relative(top, full).split(sep).join('/');
    if (path.startsWith('..') || isAbsolute(path)) continue;
    const info = await stat(full).catch(() => undefined);
    const directory = info === undefined ? !/\.ya?ml$/.test(entry) : info.isDirectory();
    if (!paths.some((p) => p.path === path)) paths.push({ path, directory: path === '' || directory });
  }
  return paths;
}

/** The workflow: at the root of the Git repository holding `root`, running gwops in `root`; in `root` outside a repository. */
async function workflowFile(root: string): Promise<InitFile> {
  const template = (await readFileBoundedAsync(join(TEMPLATES, 'workflow.yml'), FILE_LIMITS.bundled)).toString('utf8');
  const place = await placeInRepository(root);
  const file = join(place?.top ?? root, WORKFLOW_PATH);
  const sub = place?.sub ?? '';
  // A workflow below the root (from an earlier init in the subdirectory) is never run.
  const stray = sub !== '' && (await exists(join(root, WORKFLOW_PATH))) ? `; ${join(root, WORKFLOW_PATH)} is below the repository's root, where GitHub never runs it: remove it` : '';
  if (await exists(file)) {
    const text = await readFileBoundedAsync(file, FILE_LIMITS.project).then(
      (bytes) => bytes.toString('utf8'),
      () => '',
    );
    const at = sub === '' ? 'the project' : `${sub}/`;
    const note = workflowRunsIn(text, sub)
      ? `it exists and runs gwops in ${at}`
      : `it exists, but no gwops step in it runs in ${at}: add one with working-directory: ${sub === '' ? '.' : sub}`;
    return { role: 'workflow', path: file, action: 'kept', note: `${note}${stray}` };
  }
  if (place === undefined) {
    const note =
      "not in a Git repository: GitHub runs only the workflows in .github/workflows/ at a repository's root; if the project's directory is not to be that root, " +
      'move the file there and give its gwops steps working-directory: <the project directory, relative to the root>, or run gwops init again once the repository exists';
    return { role: 'workflow', path: file, action: 'created', note, write: { text: template } };
  }
  const problem = workflowDirectoryProblem(place.sub);
  if (problem !== undefined) return { role: 'workflow', path: file, action: 'not-written', note: `the project's directory cannot be named in a workflow: ${problem}; rename it` };
  const note = sub === '' ? undefined : `at the repository's root, running gwops in ${sub}/ (working-directory)${stray}`;
  return { role: 'workflow', path: file, action: 'created', ...(note === undefined ? {} : { note }), write: { text: workflowFor(template, place.sub, await projectPaths(root, place.top)) } };
}

/**
 * What `gwops init` does with each of its files in `input.root`, nothing written yet:
 * the project file and the example manifest (not with `fromGateway`), `.gitignore` and the
 * workflow. The project file is created when missing, else kept. The example is created
 * only in a new project: not when the project file exists (it would join that project's
 * manifests) nor when `manifests/` already holds files. `.gitignore` is created, or gets
 * the lines it lacks appended, or is kept. The workflow is created at the repository's
 * root, or kept when one is there.
 * @throws ConfigError when a file init would write to cannot be written (a directory or a
 *   symbolic link to nothing in its place, a file instead of a folder, no permission),
 *   naming it; with `fromGateway`, when the project file or a non-empty `manifests/` exists
 *   (the export writes them)
 */
export async function surveyInit(input: InitSurveyInput): Promise<InitFile[]> {
  const { root, fromGateway, label } = input;
  const rootProblem = await writeProblem(root, 'directory');
  if (rootProblem !== undefined) throw new ConfigError(`gwops init cannot write into ${label}: ${rootProblem}; nothing was written`);
  const project = join(root, PROJECT_FILE);
  const projectExists = await exists(project);
  const manifestsHold = await holdsEntries(join(root, MANIFESTS));
  const files: InitFile[] = [];
  if (fromGateway) {
    const taken = [...(projectExists ? [PROJECT_FILE] : []), ...(manifestsHold ? [`${MANIFESTS}/`] : [])];
    if (taken.length > 0) {
      throw new ConfigError(
        `gwops init --from-gateway writes ${PROJECT_FILE} and ${MANIFESTS}/ from the gateway and never overwrites anything, and ${root} already has ${taken.join(', ')}; nothing was written: run it in another directory, or gwops export --out to write beside them`,
      );
    }
  } else {
    files.push(projectExists ? { role: 'project', path: project, action: 'kept', note: 'it exists' } : { role: 'project', path: project, action: 'created', write: { template: 'gwops.yaml' } });
    const example = join(root, EXAMPLE);
    files.push(
      (await exists(example))
        ? { role: 'example', path: example, action: 'kept', note: 'it exists' }
        : projectExists
          ? { role: 'example', path: example, action: 'not-written', note: `${PROJECT_FILE} exists: the example's objects would become part of that project` }
          : manifestsHold
            ? { role: 'example', path: example, action: 'not-written', note: `${MANIFESTS}/ already holds files: the example's objects would join them` }
            : { role: 'example', path: example, action: 'created', write: { template: 'manifests/example.yaml' } },
    );
  }
  files.push(await gitignoreFile(join(root, '.gitignore')), await workflowFile(root));
  for (const file of files) {
    if (file.write === undefined) continue;
    const problem = await writeProblem(file.path, 'file');
    if (problem !== undefined) throw new ConfigError(`gwops init cannot write ${file.path}: ${problem}; nothing was written`);
  }
  return files;
}

/** The example manifest, for `gwops init --from-gateway` when the gateway holds nothing to export. */
export function exampleFile(root: string): InitFile {
  return { role: 'example', path: join(root, EXAMPLE), action: 'created', write: { template: 'manifests/example.yaml' } };
}

/**
 * Writes what {@link surveyInit} decided: creates files without ever replacing one (a file
 * that appeared meanwhile is an error), appends to `.gitignore` after its last byte.
 * @throws ConfigError naming the file that could not be written
 */
export async function writeInitFile(file: InitFile): Promise<void> {
  if (file.write === undefined) return;
  try {
    await mkdir(dirname(file.path), { recursive: true });
    if (file.action === 'appended' && 'text' in file.write) await appendFile(file.path, file.write.text);
    else if ('template' in file.write) await copyFile(join(TEMPLATES, file.write.template), file.path, constants.COPYFILE_EXCL);
    else await writeFile(file.path, file.write.text, { flag: 'wx' });
  } catch (error) {
    throw new ConfigError(`gwops init cannot write ${file.path}: ${errnoWords(error)}`, { cause: error });
  }
}

/** What {@link runInit} is given. */
export interface InitInput {
  /** The project's directory (absolute; created when missing). */
  readonly root: string;
  /** The directory as the user named it, for messages. */
  readonly label: string;
  /**
   * `--from-gateway`: the export's input (its output is the project's `manifests/` and its
   * project file the project's own); undefined: the project starts from the templates.
   */
  readonly fromGateway?: Omit<ExportInput, 'out' | 'projectDir'> | undefined;
  /**
   * Told, before anything of init's own is written, the export's result and whether the
   * project starts from the example manifest because the gateway held nothing to export.
   */
  readonly onExported?: ((result: ExportResult, fromExample: boolean) => void) | undefined;
}

/** What {@link runInit} did. */
export interface InitResult {
  /** init's own files and what was done with each. */
  readonly files: readonly InitFile[];
  /** The absolute paths of the files the export wrote (`--from-gateway`). */
  readonly exported: readonly string[];
  /** The project file's absolute path. */
  readonly projectFile: string;
}

/**
 * `gwops init`: a project that validates as it stands, added to what `root` holds
 * ({@link surveyInit} decides per file): the templates, or with `fromGateway` what
 * `gwops export` writes from the live gateway plus `.gitignore` and the workflow (and the
 * example manifest when the gateway holds nothing to export). Nothing that exists is ever
 * replaced. A signal while the files are written ends the run once they all are.
 * @throws ConfigError naming a file that cannot be written (nothing is written then), or
 *   with `fromGateway` a project file or manifests that exist; WriteInterruptedError after
 *   a signal; what {@link runExport} throws
 */
export async function runInit(input: InitInput): Promise<InitResult> {
  const { root } = input;
  const files: InitFile[] = await surveyInit({ root, fromGateway: input.fromGateway !== undefined, label: input.label });
  const exported: string[] = [];
  // The export's own files are swapped in whole or not at all; init's are held until all are written.
  const held = guardInterrupts('the project');
  if (input.fromGateway !== undefined) {
    const result = await runExport({ ...input.fromGateway, out: join(root, MANIFESTS), projectDir: root });
    exported.push(...result.files.map((f) => join(result.dir, f)));
    // Nothing to export: a project without manifests would not validate, so it starts from the example.
    const fromExample = Object.values(result.counts).every((n) => n === undefined || n === 0);
    if (fromExample) files.unshift(exampleFile(root));
    input.onExported?.(result, fromExample);
  }
  for (const file of files) await writeInitFile(file);
  held.release();
  if (held.signal !== undefined) throw new WriteInterruptedError(held.signal, 'complete', 'the project');
  return { files, exported, projectFile: join(root, PROJECT_FILE) };
}
