/**
 * Writes what `gwops export` built, rendering each document as it writes it: the manifests (one file per object
 * `<kind>/<name>.yaml`, or one multi-document file per kind `<kind>.yaml`),
 * `secrets.env.example` (variable names only) and, unless one exists, `gwops.yaml`.
 */
import { appendFile, cp, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { ResourceType } from '../kinds/index.js';
import { kindOf } from '../kinds/index.js';
import { escapeInvisible } from '../core/display.js';
import { ConfigError, WriteInterruptedError } from '../core/errors.js';
import { errnoWords } from '../core/files.js';
import { PROJECT_FILE } from '../manifest/project.js';
import { escapeVariables } from '../manifest/variables.js';
import { NAME_MAX_BYTES, PATH_MAX_BYTES, lengthProblem, writeProblem } from '../core/out-paths.js';
import type { ExportedDocument, SecretVariable } from './build.js';
import type { ExportFiles } from './file-layout.js';
import { contentFileName, exportFiles, manifestPath } from './file-layout.js';
import { startFileWriter } from './file-writer.js';
import { yamlText } from './yaml-text.js';
import type { InterruptGuard } from '../core/staged-files.js';
import { STAGING_PREFIX, commitStaging, discardStaging, guardInterrupts, recoverStaging, startStaging, writeFileAtomic } from '../core/staged-files.js';

export { contentFileName, contentSuffix, exportFiles, manifestPath } from './file-layout.js';
export type { ExportFiles } from './file-layout.js';

/** How the manifests are laid out. */
export type ExportLayout = 'per-object' | 'per-kind';

/** The file of `secrets.env.example`. */
export const SECRETS_EXAMPLE_FILE = 'secrets.env.example';

/** The environment variable the written project's target reads its API key from. */
export const PROJECT_API_KEY_ENV = 'GWOPS_API_KEY';


/**
 * Every string of a JSON value (keys excepted, as the reader never substitutes them) through
 * {@link escapeVariables}; a list or object with nothing to escape is the same one, not a copy.
 */
function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return escapeVariables(value);
  if (Array.isArray(value)) {
    for (const item of value) if (escapeStrings(item) !== item) return value.map(escapeStrings);
    return value;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key in record) if (escapeStrings(record[key]) !== record[key]) return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, escapeStrings(v)]));
    return value;
  }
  return value;
}

/**
 * One manifest document as YAML text (without a `---` separator). Values holding `${` are
 * written as `$${`, so that reading the manifest gives the live value back instead of
 * substituting a variable (README.md "Manifests").
 * @param contentFile the file its `content: { fromFile }` names, beside the manifest
 *   (default {@link contentFileName}; {@link exportFiles} gives another when that one is taken)
 */
export function renderDocument(document: ExportedDocument, contentFile?: string): string {
  // A singleton's document has no name (one per gateway: docs/manifest-reference.md "Singletons").
  const value: Record<string, unknown> = { apiVersion: 'gwops/v1', kind: document.kind, ...(kindOf(document.kind).singleton ? {} : { name: document.name }) };
  if (Object.keys(document.attributes).length > 0) value.attributes = document.attributes;
  if (Object.keys(document.relationships).length > 0) value.relationships = document.relationships;
  const content = contentFile ?? contentFileName(document);
  if (content !== undefined) value.content = { fromFile: content };
  return yamlText(escapeStrings(value));
}

/** The manifest files to write, rendered: path relative to the output directory → text (documents of one file joined by `---`), named by {@link exportFiles}. */
export function manifestFiles(documents: readonly ExportedDocument[], layout: ExportLayout): Map<string, string> {
  const planned = exportFiles(documents, layout);
  const files = new Map<string, string>();
  documents.forEach((document, i) => {
    const path = planned.manifests[i] ?? manifestPath(document, layout);
    const before = files.get(path);
    const text = renderDocument(document, baseOf(planned.contents[i]));
    files.set(path, before === undefined ? text : `${before}---\n${text}`);
  });
  return files;
}

/**
 * `secrets.env.example`: one `NAME=''` line per variable, never a value, under a header
 * that says how to fill a copy so that `set -a; . ./secrets.env` in bash sets each
 * variable to exactly its value: between the single quotes, over several lines when the
 * value has them (a PEM as it is), each `'` inside written as `'\''`. The comment above
 * each line names the object with its name quoted and escaped (JSON), so no name can end
 * the comment and be run as a command.
 */
export function renderSecretsExample(secrets: readonly SecretVariable[]): string {
  const lines = [
    '# The environment variables the exported manifests read their secrets from ({ fromEnv: NAME }).',
    '# gwops export never writes a secret value: set each variable before validate, plan or apply.',
    '# Write-only values (private keys, passphrases, keys) cannot be read from the gateway; a',
    '# readable secret must hold the value the gateway has, or plan shows it as a change.',
    '#',
    "# Fill a copy outside Git and load it with `set -a; . ./secrets.env; set +a`. Write each value",
    "# between its single quotes as it is, a PEM with its line breaks and its BEGIN and END lines;",
    "# write a ' inside a value as '\\''. Or read a value from a file instead: in the manifest,",
    '# { fromFile: path } (relative to the manifest) in place of { fromEnv: NAME }.',
  ];
  for (const s of secrets) {
    lines.push(`# ${s.kind} ${escapeInvisible(JSON.stringify(s.name))} ${s.attribute}${s.writeOnly ? ' (write-only)' : ''}`, `${s.variable}=''`);
  }
  return `${lines.join('\n')}\n`;
}

/** What the written project file says. */
export interface ProjectFileInput {
  /** Manifest paths relative to the project file. */
  readonly manifests: readonly string[];
  readonly targetName: string;
  readonly url: string;
  /** The CA file, relative to the project file. */
  readonly caFile?: string | undefined;
  readonly variant?: string | undefined;
  /** Per exported kind, the `--filter`s; empty when none was given. */
  readonly ownership: Partial<Record<ResourceType, readonly string[]>>;
  readonly allowExternalLinks: boolean;
}

function yamlBlock(value: unknown, indent = ''): string {
  return yamlText(value)
    .trimEnd()
    .split('\n')
    .map((line) => indent + line)
    .join('\n');
}

/** `gwops.yaml` of the exported project: manifests, one target (never its key), ownership, with comments. */
export function renderProjectFile(input: ProjectFileInput): string {
  const target: Record<string, unknown> = { url: input.url, apiKeyEnv: PROJECT_API_KEY_ENV };
  if (input.caFile !== undefined) target.caFile = input.caFile;
  if (input.variant !== undefined) target.variant = input.variant;
  const out = [
    '# gwops project file written by `gwops export`. Paths are relative to this file.',
    '',
    yamlBlock({ manifests: input.manifests }),
    '',
    `# The gateway exported from. The API key is read from ${PROJECT_API_KEY_ENV} (never written here).`,
    yamlBlock({ targets: { [input.targetName]: target } }),
    '',
    '# Ownership: per kind, the API\'s own GET filters selecting the live objects this project',
    '# owns. Only owned objects can be deleted, and only with --prune. Narrow it to what this',
    "# project manages, e.g. mapping: ['label==managed-by-gwops'] or virtual-host: ['name=@shop-'].",
  ];
  const scoped = Object.entries(input.ownership).filter(([, filters]) => filters && filters.length > 0);
  if (scoped.length > 0) out.push(yamlBlock({ ownership: Object.fromEntries(scoped) }));
  else out.push('# None is set: no object is owned, so nothing is ever deleted.', '# ownership:', "#   mapping: ['label==managed-by-gwops']");
  if (input.allowExternalLinks) {
    out.push('', '# Some links name objects that were not exported (other kinds, filtered out, or built in).', 'allowExternalLinks: true');
  }
  return `${out.join('\n')}\n`;
}

/** True when `dir` exists and holds anything (but a staging folder an interrupted export left, src/core/staged-files.ts). */
export async function isNonEmptyDirectory(dir: string): Promise<boolean> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) return false;
  if (!info.isDirectory()) return true;
  return (await readdir(dir)).some((entry) => !entry.startsWith(STAGING_PREFIX));
}

/** What {@link writeExport} wrote, paths relative to the output directory. */
export interface Written {
  readonly files: string[];
  /** False when a `gwops.yaml` existed and was kept. */
  readonly projectWritten: boolean;
  /** One line per file that got another name than the one wanted (and per earlier, killed export that was completed). */
  readonly renamed: readonly string[];
}

/**
 * The first problem of writing the files `paths` (absolute), in their order, as
 * {@link writeProblem} names it. Each folder is checked once, and only the files already
 * there one by one: a file that does not exist has no problem but its folder's and the
 * length of its path.
 */
async function firstWriteProblem(paths: readonly string[]): Promise<{ path: string; problem: string } | undefined> {
  const folders = new Map<string, { problem?: string | undefined; entries?: ReadonlySet<string>; namesFit?: boolean }>();
  for (const full of paths) {
    const folder = dirname(full);
    let checked = folders.get(folder);
    if (!checked) {
      checked = { namesFit: lengthProblem(folder) === undefined };
      folders.set(folder, checked);
    }
    // A UTF-16 unit is at most 3 bytes of UTF-8: in a folder whose names fit, a short file name on a short path fits too,
    // without encoding the path (the same answer as lengthProblem, which is asked otherwise).
    const short = checked.namesFit === true && basename(full).length * 3 <= NAME_MAX_BYTES && full.length * 3 <= PATH_MAX_BYTES;
    const tooLong = short ? undefined : lengthProblem(full);
    if (tooLong !== undefined) return { path: full, problem: tooLong };
    if (!checked.entries) {
      const problem = await writeProblem(folder, 'directory');
      checked.problem = problem;
      checked.entries = new Set(problem === undefined ? await readdir(folder).catch(() => []) : []);
    }
    const problem = checked.problem ?? (checked.entries.has(basename(full)) ? await writeProblem(full, 'file') : undefined);
    if (problem !== undefined) return { path: full, problem };
  }
  return undefined;
}

/** How many files are written at once: enough to keep the file system's threads busy. */
const WRITES_IN_FLIGHT = 16;

/**
 * Calls `work` for each item, at most `limit` at once; after the first error no item is
 * started, and once the calls in flight have settled it rejects with that error (so that
 * nothing is still writing when the caller cleans up).
 */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const rejected = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (rejected) throw rejected.reason;
}

/**
 * Writes the manifests of `documents` (each rendered as it is written, never all held at
 * once) into `dir` (created when missing), the project file and the secrets example into
 * `projectDir` (default `dir`), every file with one owner ({@link exportFiles}).
 *
 * Nothing in `dir` is changed until every new file is written: the files go into a staging
 * folder inside `dir` first, then the folders of the exported kinds (per object; the files
 * other than manifests and content files in the old ones are kept) or the per-kind files are
 * swapped in, one rename each (src/core/staged-files.ts); an existing project file is kept. So
 * the manifests of objects that are gone disappear, and an interrupted export (SIGINT,
 * SIGTERM, SIGHUP) leaves the old files as they were. Every path is checked first
 * ({@link writeProblem}): when one cannot be written, nothing is removed or written.
 * @param clearFolders the kinds' folders (per object) whose old content the new export replaces
 * @returns the files written and, in `renamed`, one line per file that got another name
 * @throws ConfigError naming the path and what is wrong (one line)
 * @throws WriteInterruptedError when a signal came (the old files are intact, or the swap was finished)
 */
export async function writeExport(
  dir: string,
  documents: readonly ExportedDocument[],
  layout: ExportLayout,
  secrets: readonly SecretVariable[],
  project: string,
  clearFolders: readonly string[],
  projectDir: string = dir,
): Promise<Written> {
  const reserved = projectDir === dir ? [PROJECT_FILE, SECRETS_EXAMPLE_FILE] : [];
  const planned = exportFiles(documents, layout, reserved);
  const manifests = [...new Set(planned.manifests)];
  const contents = planned.contents.flatMap((path) => path ?? []);
  const paths = [...manifests.map((path) => join(dir, path)), ...contents.map((path) => join(dir, path)), join(projectDir, PROJECT_FILE), ...(secrets.length > 0 ? [join(projectDir, SECRETS_EXAMPLE_FILE)] : [])];
  const found = await firstWriteProblem(paths);
  if (found !== undefined) throw new ConfigError(`cannot write ${relative(dir, found.path)}: ${found.problem}; nothing was written or removed`);
  const guard = guardInterrupts(`the export into ${dir}`);
  try {
    const recovered = await recoverStaging(dir).catch(() => []);
    const written = await writeStaged(dir, documents, planned, layout, manifests, contents, secrets, project, clearFolders, projectDir, guard);
    return { ...written, renamed: [...recovered, ...planned.renamed] };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof WriteInterruptedError) throw error;
    throw new ConfigError(`cannot write the export into ${dir}: ${errnoWords(error)}`, { cause: error });
  } finally {
    guard.release();
  }
}

/** Text gathered for a per-kind file before it is appended (characters). */
const CHUNK_CHARS = 1 << 20;

/** The names of manifest and content files, the ones a new export replaces in a kind's folder. */
const EXPORTED_FILE = /\.ya?ml$|\.content\.[a-z]+$/;

async function writeStaged(
  dir: string,
  documents: readonly ExportedDocument[],
  planned: ExportFiles,
  layout: ExportLayout,
  manifests: readonly string[],
  contents: readonly string[],
  secrets: readonly SecretVariable[],
  project: string,
  clearFolders: readonly string[],
  projectDir: string,
  guard: InterruptGuard,
): Promise<Omit<Written, 'renamed'>> {
  const staging = await startStaging(dir);
  // The entries directly in `dir` that the export replaces.
  const entries = new Set([...manifests, ...contents].map((path) => path.split('/')[0] ?? path));
  try {
    for (const folder of clearFolders) {
      const old = join(dir, folder);
      const kept = (await readdir(old).catch(() => [] as string[])).filter((entry) => !EXPORTED_FILE.test(entry));
      if (!(await isDirectory(old))) continue;
      entries.add(folder);
      await mkdir(join(staging, folder), { recursive: true });
      // What the old folder holds besides manifests and content files stays (a README, a .gitkeep).
      for (const entry of kept) await cp(join(old, entry), join(staging, folder, entry), { recursive: true, errorOnExist: true, force: false });
    }
    for (const folder of new Set(manifests.map((path) => dirname(join(staging, path))))) await mkdir(folder, { recursive: true });
    guard.check();
    if (layout === 'per-kind') {
      // One file per kind, its documents appended in order.
      const byFile = new Map<string, { document: ExportedDocument; content: string | undefined }[]>();
      documents.forEach((document, i) => {
        const path = planned.manifests[i] ?? manifestPath(document, layout);
        const list = byFile.get(path) ?? [];
        list.push({ document, content: baseOf(planned.contents[i]) });
        byFile.set(path, list);
      });
      for (const [path, list] of byFile) {
        // Appended in chunks of about CHUNK_CHARS: the whole file is never held.
        const full = join(staging, path);
        await writeFile(full, '');
        let chunk = '';
        for (const [i, { document, content }] of list.entries()) {
          chunk += (i === 0 ? '' : '---\n') + renderDocument(document, content);
          if (chunk.length >= CHUNK_CHARS) {
            guard.check();
            await appendFile(full, chunk);
            chunk = '';
          }
        }
        await appendFile(full, chunk);
      }
    } else {
      // One after the other, on a thread of their own while this one renders the next: creating files in one folder is
      // serialised by the file system anyway (the folder is locked for each), so writes in flight would only contend, and
      // each asynchronous write costs three round trips to the thread pool (open, write, close).
      const writer = startFileWriter();
      try {
        documents.forEach((document, i) =>
          writer.write(join(staging, planned.manifests[i] ?? manifestPath(document, layout)), renderDocument(document, baseOf(planned.contents[i]))),
        );
      } finally {
        await writer.close(guard.aborted);
      }
    }
    guard.check();
    await eachLimited(
      documents.map((document, i) => ({ document, path: planned.contents[i] })),
      WRITES_IN_FLIGHT,
      async ({ document, path }) => {
        guard.check();
        if (path !== undefined && document.content !== undefined) await writeFile(join(staging, path), document.content);
      },
    );
    guard.check();
  } catch (error) {
    // A signal while the files are written: every write has stopped by now (the threads ended, the writes in flight
    // settled), so the staging folder goes whole and the old files stay.
    discardStaging(staging);
    if (guard.signal !== undefined) throw new WriteInterruptedError(guard.signal, 'discarded', `the export into ${dir}`);
    throw error;
  }
  // Every file is written: from here a signal waits until the files are swapped in.
  await commitStaging(staging, dir, [...entries].sort());
  const files = [...manifests, ...contents];
  if (secrets.length > 0) {
    await writeFileAtomic(join(projectDir, SECRETS_EXAMPLE_FILE), renderSecretsExample(secrets));
    files.push(relative(dir, join(projectDir, SECRETS_EXAMPLE_FILE)));
  }
  const projectFile = join(projectDir, PROJECT_FILE);
  const exists = await stat(projectFile).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await writeFileAtomic(projectFile, project);
    files.push(relative(dir, projectFile));
  }
  if (guard.signal !== undefined) throw new WriteInterruptedError(guard.signal, 'complete', `the export into ${dir}`);
  return { files, projectWritten: !exists };
}

/** The file name of a path relative to the output directory ('/'-separated), or undefined. */
function baseOf(path: string | undefined): string | undefined {
  return path === undefined ? undefined : basename(path);
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
