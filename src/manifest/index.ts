/**
 * The manifest loader (docs/architecture.md "The data path", step 1): files → YAML
 * documents with positions → variables → envelope checks → overlays → schema validation →
 * semantic rules → secrets and templates resolved → {@link ManifestDocument}s. Every
 * problem is reported at once as a {@link Diagnostic}; nothing here contacts a gateway.
 */
import path from 'node:path';
import { InputError } from '../core/errors.js';
import { isResourceType, kindOf, kindOfDocument } from '../kinds/index.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import type { ObjectKey } from '../core/object-key.js';
import { objectKey } from '../core/object-key.js';
import { SCHEMA_KINDS, attributesSchema } from '../schema/index.js';
import { applyOverlays, applyVariables, collectEntries } from './collect.js';
import type { EntryIndex } from './collect.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { sortDiagnostics } from '../core/diagnostics.js';
import type { Entry } from './entries.js';
import { entryDiagnostic, isWholeReference, labelOf, withName } from './entries.js';
import { checkUrlCredentials } from './url-credentials.js';
import { parseFile } from './parse.js';
import { documentStart, makeDiagnostic } from './positions.js';
import { PROJECT_FILE, invalidProject, readProject } from './project.js';
import { ignoreEntryWarnings } from './drift-ignore-check.js';
import { ownershipDiagnostics } from './ownership-check.js';
import { eventLoopTurns } from '../core/interrupts.js';
import type { ProjectConfig, TargetConfig } from './project.js';
import type { JwksReference } from './jwks-refs.js';
import { collectJwksReferences, locateJwksReferences } from './jwks-refs.js';
import type { ParsedFile } from './content.js';
import { contentFiles, manifestsOf, projectRoot, readDeclaredContent } from './content.js';
import type { ObjectContent } from '../core/object-content.js';
import { mergeTemplates, resolveSecrets } from './resolve.js';
import { resolveFiles } from './file-sources.js';
import { variableGuard } from './secret-variables.js';
import type { LiteralSecret, SecretReference } from './resolve.js';
import type { Resolved } from './rules.js';
import { checkDocuments, checkNameAttribute, checkPatterns, checkVariant, undeclaredLinkSources, undeclaredReferenceSources } from './rules.js';
import { schemaDiagnostics, suggestion } from './schema-check.js';
import { expandPaths, readSources } from './sources.js';
import type { ManifestDocument, SourceLocation } from './types.js';
import { setOwnMember } from '../core/own-member.js';

export type { Diagnostic, DiagnosticCode } from '../core/diagnostics.js';
export type { DiagnosticFormat } from '../core/diagnostics-format.js';
export { hasErrors, sortDiagnostics } from '../core/diagnostics.js';
export { DIAGNOSTICS_FORMAT_VERSION, formatDiagnostics } from '../core/diagnostics-format.js';
export type { ProjectConfig, TargetConfig } from './project.js';
export { PROJECT_FILE, defaultProject, loadProject } from './project.js';
export type { AttributeObject, ManifestDocument, SourceLocation } from './types.js';
export { API_VERSION } from './collect.js';

/** Options of {@link loadManifests}. */
export interface LoadOptions {
  /** Files, directories (recursive `*.yaml`/`*.yml`), or `-` for stdin; empty → the project file's `manifests`. Relative to `cwd`. */
  paths: readonly string[];
  cwd: string;
  /** Environment for `${VAR}` and `{ fromEnv }` (never printed). */
  env: Readonly<Record<string, string | undefined>>;
  stdin?: NodeJS.ReadableStream;
  /** `--config`; default `gwops.yaml` in `cwd` when it exists. */
  configFile?: string;
  /** A target of the project file: its variant and overlay directories apply. */
  target?: string;
  /** Overrides the target's variant; default `latest`. */
  variant?: Variant;
  /**
   * Read `{ fromFile }` / `{ fromEnv }` secret sources (default true). When false their shape
   * is still checked but they are left unresolved, so `documents` must not be sent anywhere:
   * for `gwops validate --skip-secrets` in CI jobs without access to the secrets.
   */
  resolveSecrets?: boolean;
  /**
   * Refuse paths that hold no manifest document (an empty directory, files with only
   * comments) with an InputError naming them, as Terraform refuses a directory without
   * configuration files. The CLI sets it unless `--allow-empty` (README.md, Commands).
   */
  requireDocuments?: boolean;
  /**
   * Keep what {@link LoadResult.origins} answers from (every parsed document, its variables
   * substituted, and the overlays): default true. False for runs that never ask it (only
   * `drift --adopt` does): `origins` then answers undefined, and that memory (about as much
   * as the desired state itself) is freed once the manifests are loaded.
   */
  keepOrigins?: boolean;
}

/** Result of {@link loadManifests}. */
export interface LoadResult {
  /** Fully resolved documents; only meaningful when there is no error diagnostic. */
  documents: ManifestDocument[];
  /** Every problem found, sorted by file, line, column. */
  diagnostics: Diagnostic[];
  project: ProjectConfig;
  variant: Variant;
  /** Where an object is declared (for mapping the gateway's validator messages back to file:line). */
  locate(kind: ResourceType, name: string): SourceLocation | undefined;
  /**
   * Every secret value of the manifests (each resolved `fromEnv` / `fromFile` value, and
   * secrets written as strings), for redaction: register them in the run's SecretRedactor
   * (src/core/secrets.ts). Never print them.
   */
  secretValues: string[];
  /**
   * The source of every secret value resolved from `{ fromEnv }` or `{ fromFile }` (an
   * absolute path), by value: what a saved plan records instead of the value (when two
   * sources gave the same value, the one read last). Never print the keys.
   */
  secretReferences: ReadonlyMap<string, SecretReference>;
  /**
   * The `{ fromJwks }` values of `documents`, checked offline but not fetched: `documents`
   * still hold them as objects until `resolveJwksReferences` (src/operations/steps/jwks-resolve.ts) puts the
   * keys in place.
   */
  jwksReferences: JwksReference[];
  /**
   * The documents an object's declaration was read from: the base document and the
   * target's overlays (latest first), for `drift --adopt` (src/adopt/). Undefined for an
   * object no document declares.
   */
  origins(kind: ResourceType, name: string): ObjectOrigins | undefined;
}

/** One document that contributed to an object's declaration. */
export interface DocumentOrigin {
  /** The file as displayed (relative to the working directory, `-` for stdin). */
  readonly file: string;
  /** `document`: the base document; `merge-patch` / `json-patch`: an overlay in that form. */
  readonly form: 'document' | 'merge-patch' | 'json-patch';
  /** The line (1-based) where the document starts in `file`: it finds the document whatever its `name` is written as (a `${VAR}`). */
  readonly line?: number;
  /**
   * Where a pointer of the object's document (segments such as `['attributes', 'port']`) is
   * written in this document, as segments of this document, or undefined when it is not.
   */
  readonly locate: (segments: readonly string[]) => readonly string[] | undefined;
}

/** {@link LoadResult.origins}: the base document and the overlays applied to it. */
export interface ObjectOrigins {
  readonly base: DocumentOrigin;
  /** Latest first (the first that locates a pointer is the one in force). */
  readonly overlays: readonly DocumentOrigin[];
}

function documentOrigin(origin: Entry['baseOrigin'], base: boolean): DocumentOrigin {
  const value = origin.parsed.value;
  const patch = typeof value === 'object' && value !== null && 'patch' in value;
  return { file: origin.parsed.source.file, line: origin.parsed.start.line, form: base ? 'document' : patch ? 'json-patch' : 'merge-patch', locate: (segments) => origin.mapPointer(segments) };
}

/**
 * {@link LoadResult.locate} and {@link LoadResult.origins}, made outside `loadManifests` so
 * that they hold only what they answer from (not the loader's other locals).
 * @param documents the resolved documents (`locate` indexes them when first asked: most
 *   runs never ask)
 * @param index the entries by kind and name; undefined: `origins` answers undefined
 */
function lookups(documents: readonly ManifestDocument[], index: EntryIndex | undefined): Pick<LoadResult, 'locate' | 'origins'> {
  let byKey: Map<ObjectKey<ResourceType>, SourceLocation> | undefined;
  return {
    locate: (kind, name) => {
      byKey ??= new Map(documents.map((d) => [objectKey(d.kind, d.name), d.source]));
      return byKey.get(objectKey(kind, name));
    },
    origins: (kind, name) => {
      const entry = index?.get(kind)?.get(name);
      return entry ? { base: documentOrigin(entry.baseOrigin, true), overlays: entry.overlays.map((o) => documentOrigin(o, false)) } : undefined;
    },
  };
}

/** The warnings about `drift.ignore` entries that match nothing the manifests declare (drift-ignore-check.ts), located in the project file. */
function driftIgnoreDiagnostics(project: ProjectConfig, documents: readonly ManifestDocument[]): Diagnostic[] {
  if (project.drift.ignore.length === 0) return [];
  const names = new Map<ResourceType, string[]>();
  for (const d of documents) {
    const list = names.get(d.kind);
    if (list) list.push(d.name);
    else names.set(d.kind, [d.name]);
  }
  return ignoreEntryWarnings(project.drift, (kind) => names.get(kind) ?? []).map((w) => {
    const at = project.drift.at?.[w.index];
    const where = (w.field === 'attribute' ? at?.attribute : undefined) ?? at?.object;
    return {
      severity: 'warning' as const,
      code: 'drift-ignore-unmatched' as const,
      file: where?.file ?? project.file ?? PROJECT_FILE,
      line: where?.line ?? 1,
      column: where?.column ?? 1,
      pointer: where?.pointer ?? `/drift/ignore/${w.index}`,
      message: w.message,
    };
  });
}

function selectTarget(project: ProjectConfig, name: string | undefined): TargetConfig | undefined {
  if (name === undefined) return undefined;
  const target = Object.hasOwn(project.targets, name) ? project.targets[name] : undefined;
  if (!target) {
    const names = Object.keys(project.targets);
    throw new InputError(
      `unknown target '${name}'${suggestion(name, names)}${names.length ? ` (targets: ${names.join(', ')})` : ' (the project file defines no targets)'}`,
    );
  }
  return target;
}

async function parseAll(
  paths: readonly string[],
  cwd: string,
  stdin: NodeJS.ReadableStream | undefined,
  exclude: ReadonlySet<string>,
): Promise<ParsedFile[]> {
  const inputs = await expandPaths(paths, cwd, exclude);
  const sources = await readSources(inputs, cwd, stdin);
  // Many files take long to parse: signals are answered between them.
  const turn = eventLoopTurns();
  const parsed: ParsedFile[] = [];
  for (const source of sources) {
    const waiting = turn();
    if (waiting) await waiting;
    const diagnostics: Diagnostic[] = [];
    parsed.push({ source, documents: parseFile(source, diagnostics), diagnostics });
  }
  return parsed;
}

/**
 * Loads, validates and resolves manifests. Never throws for bad manifest content: every
 * problem becomes a diagnostic.
 * @throws InputError for an unreadable path, an invalid or unreadable project file, an
 *   unknown target, when no manifest path is given at all, or (with `requireDocuments`)
 *   when the paths hold no manifest document
 */
export async function loadManifests(options: LoadOptions): Promise<LoadResult> {
  const { cwd, env } = options;
  // The project file's problems are reported with the manifests' (all at once), unless
  // what the run needs of it (the manifest paths, the target) is among them.
  const { project, diagnostics: projectProblems } = readProject(cwd, options.configFile);
  const givenPaths = options.paths.length > 0 ? options.paths : project.manifests;
  if (projectProblems.length > 0 && (givenPaths.length === 0 || (options.target !== undefined && !Object.hasOwn(project.targets, options.target)))) {
    throw invalidProject(projectProblems);
  }
  const target = selectTarget(project, options.target);
  const variant: Variant = options.variant ?? target?.variant ?? 'latest';
  const overlayDirs = new Set(Object.values(project.targets).flatMap((t) => t.overlays ?? []));
  if (givenPaths.length === 0) {
    throw new InputError(`no manifests given: pass files or directories, or list them under 'manifests' in gwops.yaml`);
  }
  const out: Diagnostic[] = [...projectProblems];
  const baseFiles = await parseAll(givenPaths, cwd, options.stdin, overlayDirs);
  const overlayFiles = target?.overlays?.length ? await parseAll(target.overlays, cwd, options.stdin, new Set()) : [];
  // A YAML specification that a document names as its content is no manifest (content.ts).
  const named = contentFiles([...baseFiles, ...overlayFiles]);
  const parsed = manifestsOf(baseFiles, named, out);
  if (options.requireDocuments === true && parsed.length === 0 && out.length === 0) {
    throw new InputError(
      `no manifest documents in ${givenPaths.map((p) => `'${p}'`).join(', ')}: give the files or directories that hold them, ` +
        'or pass --allow-empty if an empty configuration is meant (with --prune and --allow-mass-delete it deletes every owned object)',
    );
  }
  const overlayDocs = manifestsOf(overlayFiles, named, out);
  // Variables holding a key or secret are known before any is substituted (secret-variables.ts).
  const guard = variableGuard(project, [...parsed, ...overlayDocs], env);
  const base = parsed.map((p) => ({ parsed: p, substituted: applyVariables(p, env, out, guard) }));
  const { index, unnamed } = collectEntries(base, out);
  if (overlayDocs.length > 0) {
    applyOverlays(
      overlayDocs.map((p) => ({ parsed: p, substituted: applyVariables(p, env, out, guard) })),
      index,
      out,
    );
  }

  for (const { parsed: p, kind } of unnamed) {
    const whole = (segments: readonly string[]): boolean => p.wholeReferences?.has(segments.join('/')) === true;
    for (const spec of schemaDiagnostics(kind, p.value, labelOf(kind, undefined), whole)) {
      // The missing or invalid name is already reported.
      if (spec.pointer[0] !== 'name') out.push(makeDiagnostic(p, spec));
    }
  }
  const entries: Entry[] = [...index.values()].flatMap((m) => [...m.values()]);
  // The checks below are long on a large manifest set: signals are answered meanwhile.
  const turn = eventLoopTurns();
  const literals: LiteralSecret[] = [];
  const secretValues: string[] = [...guard.values];
  const secretReferences = new Map<string, SecretReference>();
  const secretVersions = new Map<Entry, Record<string, number>>();
  const contents = new Map<Entry, ObjectContent>();
  const root = projectRoot([project.file !== undefined ? path.dirname(project.file) : cwd, ...[...givenPaths, ...(target?.overlays ?? [])].filter((p) => p !== '-').map((p) => path.resolve(cwd, p))]);
  for (const entry of entries) {
    const waiting = turn();
    if (waiting) await waiting;
    const label = labelOf(entry.kind, entry.name);
    for (const spec of schemaDiagnostics(entry.kind, entry.value, label, (segments) => isWholeReference(entry, segments))) out.push(entryDiagnostic(entry, spec));
    checkVariant(entry, variant, out);
    checkNameAttribute(entry, out);
    checkPatterns(entry, out);
    const versions: Record<string, number> = {};
    literals.push(...resolveSecrets(entry, options.resolveSecrets === false ? undefined : env, out, secretValues, secretReferences, versions));
    if (Object.keys(versions).length > 0) secretVersions.set(entry, versions);
    resolveFiles(entry, root, out);
    if (isResourceType(entry.kind) && kindOf(entry.kind).content === true) {
      const content = readDeclaredContent(entry, root, out);
      if (content) contents.set(entry, content);
    }
  }
  const jwksLocations = locateJwksReferences(entries);
  const effective = mergeTemplates(index, out);

  const resolved: Resolved[] = [];
  for (const entry of entries) {
    const waiting = turn();
    if (waiting) await waiting;
    const kind = entry.kind;
    if (!isResourceType(kind)) continue;
    const own = entry.value.attributes;
    let attributes = effective.get(entry) ?? (typeof own === 'object' && own !== null && !Array.isArray(own) ? (own as Record<string, unknown>) : {});
    if (attributesSchema(kind).properties?.name) attributes = withName(attributes, entry.name);
    const relationships: Record<string, string[]> = {};
    const rels = entry.value.relationships;
    if (typeof rels === 'object' && rels !== null) {
      for (const [rel, targets] of Object.entries(rels)) {
        // slice: a copy of exactly its length (arrays grown item by item keep spare room).
        const names = typeof targets === 'string' ? [targets] : Array.isArray(targets) ? (targets.every((t) => typeof t === 'string') ? targets.slice() : targets.filter((t): t is string => typeof t === 'string')) : undefined;
        if (names === undefined) continue;
        // A relationship named `__proto__` (the schema reports it) stays a member.
        setOwnMember(relationships, rel, names);
      }
    }
    const start = documentStart(entry.base);
    const linkSources = project.allowExternalLinks ? undeclaredLinkSources({ kind, relationships }, entry, index) : undefined;
    const referenceSources = undeclaredReferenceSources({ kind, attributes }, entry, index);
    // Built by assignment: four conditional spreads per document cost more than the rest of its fields.
    const doc: { -readonly [K in keyof ManifestDocument]: ManifestDocument[K] } = {
      kind,
      name: entry.name,
      attributes,
      relationships,
      source: { file: entry.base.source.file, line: start.line, column: start.column },
    };
    const versions = secretVersions.get(entry);
    if (versions !== undefined) doc.secretVersions = versions;
    const content = contents.get(entry);
    if (content !== undefined) doc.content = content;
    if (linkSources) doc.linkSources = linkSources;
    if (referenceSources) doc.referenceSources = referenceSources;
    resolved.push({ doc, entry });
  }
  // A document lost to a syntax error may be what a link names: do not report its links as dangling.
  const lostDocuments = out.some((d) => d.code === 'yaml-syntax');
  // Nor are links to the name of a document whose kind is unknown (a typo such as `virtual-hots`,
  // reported once with the kind it likely means): it may be what they name.
  const unknownKindNames = new Set(
    parsed.flatMap((p) => {
      const v = p.value as { kind?: unknown; name?: unknown } | null;
      return typeof v === 'object' && v !== null && typeof v.kind === 'string' && !SCHEMA_KINDS.includes(v.kind) && typeof v.name === 'string' ? [v.name] : [];
    }),
  );
  checkDocuments(resolved, index, lostDocuments ? 'skip' : project.allowExternalLinks ? 'warnings' : 'errors', out, unknownKindNames);
  // Every declared object inside its kind's ownership scope (ownership-check.ts).
  out.push(...ownershipDiagnostics(project, resolved));
  const jwksReferences = collectJwksReferences(resolved, jwksLocations, project, out, secretValues);
  checkUrlCredentials(resolved, out, secretValues);
  for (const { entry, at } of literals) {
    // A template's secrets are those of the kind that names it.
    const holdsSecret = kindOfDocument(entry.kind).holdsSecret;
    if (holdsSecret && !holdsSecret(at, effective.get(entry) ?? {})) continue;
    out.push(
      entryDiagnostic(entry, {
        code: 'literal-secret',
        severity: 'warning',
        pointer: ['attributes', ...at],
        message: `secret '${at.join('.')}' of ${labelOf(entry.kind, entry.name)} is written in the manifest: use { fromEnv: NAME } or { fromFile: path }`,
      }),
    );
  }

  const documents = resolved.map((r) => r.doc);
  out.push(...driftIgnoreDiagnostics(project, documents));
  return {
    documents,
    diagnostics: sortDiagnostics(out),
    project,
    variant,
    ...lookups(documents.slice(), options.keepOrigins === false ? undefined : index),
    secretValues: [...new Set(secretValues)],
    secretReferences,
    jwksReferences,
  };
}
