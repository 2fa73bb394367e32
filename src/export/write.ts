/**
 * Writes what `gwops export` built: the manifests (one file per object
 * `<kind>/<name>.yaml`, or one multi-document file per kind `<kind>.yaml`),
 * `secrets.env.example` (variable names only) and, unless one exists, `gwops.yaml`.
 */
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import type { ResourceType } from '../kinds/index.js';
import { escapeInvisible } from '../display.js';
import { ConfigError } from '../errors.js';
import { errnoWords } from '../files.js';
import { PROJECT_FILE } from '../manifest/project.js';
import { escapeVariables } from '../manifest/variables.js';
import { writeProblem } from '../out-paths.js';
import type { ExportedDocument, SecretVariable } from './build.js';
import { escapeFileName } from './names.js';

/** How the manifests are laid out. */
export type ExportLayout = 'per-object' | 'per-kind';

/** The file of `secrets.env.example`. */
export const SECRETS_EXAMPLE_FILE = 'secrets.env.example';

/** The environment variable the written project's target reads its API key from. */
export const PROJECT_API_KEY_ENV = 'GWOPS_API_KEY';

const YAML_OPTIONS = { lineWidth: 0, minContentWidth: 0 } as const;

/** Every string of a JSON value (keys excepted, as the reader never substitutes them) through {@link escapeVariables}. */
function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return escapeVariables(value);
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeStrings(v)]));
  return value;
}

/**
 * One manifest document as YAML text (without a `---` separator). Values holding `${` are
 * written as `$${`, so that reading the manifest gives the live value back instead of
 * substituting a variable (README.md "Manifests").
 */
export function renderDocument(document: ExportedDocument): string {
  const value: Record<string, unknown> = { apiVersion: 'gwops/v1', kind: document.kind, name: document.name };
  if (Object.keys(document.attributes).length > 0) value.attributes = document.attributes;
  if (Object.keys(document.relationships).length > 0) value.relationships = document.relationships;
  return stringify(escapeStrings(value), YAML_OPTIONS);
}

/** The manifest files to write: path relative to the output directory → text. */
export function manifestFiles(documents: readonly ExportedDocument[], layout: ExportLayout): Map<string, string> {
  const files = new Map<string, string>();
  if (layout === 'per-kind') {
    const byKind = new Map<ResourceType, string[]>();
    for (const document of documents) {
      const texts = byKind.get(document.kind) ?? [];
      texts.push(renderDocument(document));
      byKind.set(document.kind, texts);
    }
    for (const [kind, texts] of byKind) files.set(`${kind}.yaml`, texts.join('---\n'));
    return files;
  }
  for (const document of documents) files.set(join(document.kind, `${escapeFileName(document.name)}.yaml`), renderDocument(document));
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
  return stringify(value, YAML_OPTIONS)
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

/** True when `dir` exists and holds anything. */
export async function isNonEmptyDirectory(dir: string): Promise<boolean> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) return false;
  if (!info.isDirectory()) return true;
  return (await readdir(dir)).length > 0;
}

/** What {@link writeExport} wrote, paths relative to the output directory. */
export interface Written {
  readonly files: string[];
  /** False when a `gwops.yaml` existed and was kept. */
  readonly projectWritten: boolean;
}

/**
 * Writes the files into `dir` (created when missing), the project file and the secrets
 * example into `projectDir` (default `dir`). In the per-object layout, the YAML files
 * already in the exported kinds' folders are removed first (they would be read as
 * manifests of objects that are gone); an existing project file is kept. Every path is
 * checked first ({@link writeProblem}): when one cannot be written, nothing is removed or
 * written.
 * @throws ConfigError naming the path and what is wrong (one line)
 */
export async function writeExport(
  dir: string,
  manifests: ReadonlyMap<string, string>,
  secrets: readonly SecretVariable[],
  project: string,
  clearFolders: readonly string[],
  projectDir: string = dir,
): Promise<Written> {
  const paths = [...[...manifests.keys()].map((path) => join(dir, path)), join(projectDir, PROJECT_FILE), ...(secrets.length > 0 ? [join(projectDir, SECRETS_EXAMPLE_FILE)] : [])];
  for (const full of paths) {
    const problem = await writeProblem(full, 'file');
    if (problem !== undefined) throw new ConfigError(`cannot write ${relative(dir, full)}: ${problem}; nothing was written or removed`);
  }
  try {
    return await writeChecked(dir, manifests, secrets, project, clearFolders, projectDir);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot write the export into ${dir}: ${errnoWords(error)}`, { cause: error });
  }
}

async function writeChecked(
  dir: string,
  manifests: ReadonlyMap<string, string>,
  secrets: readonly SecretVariable[],
  project: string,
  clearFolders: readonly string[],
  projectDir: string,
): Promise<Written> {
  await mkdir(dir, { recursive: true });
  for (const folder of clearFolders) {
    const full = join(dir, folder);
    const entries = await readdir(full).catch(() => [] as string[]);
    for (const entry of entries) if (/\.ya?ml$/.test(entry)) await rm(join(full, entry), { force: true });
  }
  const files: string[] = [];
  for (const [path, text] of manifests) {
    const full = join(dir, path);
    await mkdir(join(full, '..'), { recursive: true });
    await writeFile(full, text);
    files.push(relative(dir, full));
  }
  if (secrets.length > 0) {
    await writeFile(join(projectDir, SECRETS_EXAMPLE_FILE), renderSecretsExample(secrets));
    files.push(relative(dir, join(projectDir, SECRETS_EXAMPLE_FILE)));
  }
  const projectFile = join(projectDir, PROJECT_FILE);
  const exists = await stat(projectFile).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await writeFile(projectFile, project);
    files.push(relative(dir, projectFile));
  }
  return { files, projectWritten: !exists };
}
