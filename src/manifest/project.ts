/**
 * The project file `gwops.yaml` (README.md "Manifests"): manifest paths, targets with their
 * variant and overlay directories, and the ownership scope as the API's own GET filters.
 * Validated against `schemas/project.schema.json`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { InputError, FileReadError } from '../core/errors.js';
import { FILE_LIMITS, readFileBounded } from '../core/files.js';
import type { ResourceType, Variant } from '../kinds/index.js';
import { loadSchemaFile } from '../schema/schema-files.js';
import type { DriftSettings } from './drift-ignore.js';
import { parseDriftSettings } from './drift-ignore.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { parseFile } from './parse.js';
import type { DiagnosticSpec } from './positions.js';
import { makeDiagnostic } from './positions.js';
import { decodeUtf8 } from './source-file.js';
import { escapeInvisible, hasInvisible } from '../core/display.js';
import { setOwnMember } from '../core/own-member.js';
import { PACKAGE_SCHEMA_OPTIONS, newAjv, schemaDiagnosticsWith } from './schema-check.js';
import { PROJECT_FILE_VALIDATOR, precompiledValidator, validatorDigest } from './precompiled.js';

/** One gateway a project is applied to. Paths are absolute (resolved against the project file's directory). */
export interface TargetConfig {
  /** Base URL of the configuration REST API. */
  url: string;
  /** Environment variable holding the API key. */
  apiKeyEnv?: string;
  apiKeyFile?: string;
  caFile?: string;
  /** How long a call waits for the gateway, in seconds (below `--timeout` and `GWOPS_TIMEOUT`). */
  timeout?: number;
  variant?: Variant;
  /** Overlay directories or files (absolute). */
  overlays?: string[];
}

/**
 * A JSON Web Key Set that `{ fromJwks: { source } }` values name (`jwks:` in gwops.yaml;
 * docs/manifest-reference.md "Token keys from a JWKS"): fetched once per run.
 */
export interface JwksSourceConfig {
  /** `https://` URL of the JWK Set. */
  url: string;
  /** PEM file (absolute) of the CA that issued the JWKS server's certificate; default the system's roots. */
  caFile?: string;
  /** How long the fetch may take, in milliseconds. */
  timeoutMs?: number;
}

/** A parsed `gwops.yaml`, or the defaults when there is none. */
export interface ProjectConfig {
  /** Absolute path of the project file, undefined when there is none. */
  file: string | undefined;
  /** Manifest paths (absolute) used when no paths are given. */
  manifests: string[];
  targets: Record<string, TargetConfig>;
  /** Per kind, the API's own GET filters, e.g. `['name=@shop-']`, `['labels==team-shop']`. */
  ownership: Partial<Record<ResourceType, string[]>>;
  /** Links to names no manifest defines are allowed (objects outside the project). */
  allowExternalLinks: boolean;
  /** Largest share of owned objects of a kind one plan may delete without --allow-mass-delete (0..1). */
  massDeleteShare: number;
  /** Named JWK Sets (`jwks:`), by source name. */
  jwks: Record<string, JwksSourceConfig>;
  /** The `drift` section: known differences to ignore until a date (src/manifest/drift-ignore.ts). */
  drift: DriftSettings;
}

/** The project file name looked up in the working directory. */
export const PROJECT_FILE = 'gwops.yaml';

/** Defaults when there is no project file. */
export function defaultProject(): ProjectConfig {
  return { file: undefined, manifests: [], targets: {}, ownership: {}, allowExternalLinks: false, massDeleteShare: 0.5, jwks: {}, drift: { ignore: [] } };
}

let projectValidator: ValidateFunction | undefined;

/** What the project file's validator is compiled from ({@link validatorDigest}). */
export function projectSchemaDigest(): string {
  return validatorDigest(PACKAGE_SCHEMA_OPTIONS, [loadSchemaFile('project.schema.json')]);
}

/**
 * Validates a project file's value: with the validator `npm run build` precompiled when it
 * is there and made from this schema (src/manifest/precompiled.ts), else compiled once.
 */
function validateProject(value: unknown): ValidateFunction {
  projectValidator ??=
    precompiledValidator(PROJECT_FILE_VALIDATOR, projectSchemaDigest) ?? newAjv(PACKAGE_SCHEMA_OPTIONS).compile(loadSchemaFile('project.schema.json'));
  projectValidator(value);
  return projectValidator;
}

/** An `ownership` entry as it should look, for messages. */
const OWNERSHIP_EXAMPLE = "e.g. ownership: { mapping: ['label==managed-by-gwops'], virtual-host: 'name=@shop-' }";

/**
 * The schema's problems with one kind's `ownership` filters as one message with an
 * example (instead of one per branch of the schema's "one filter or a list" choice);
 * other problems unchanged. The filter syntax: docs/gateway-api.md "Filter syntax".
 */
function ownershipOnce(specs: readonly DiagnosticSpec[], display: string): DiagnosticSpec[] {
  const seen = new Set<string>();
  const out: DiagnosticSpec[] = [];
  for (const spec of specs) {
    const [top, kind] = spec.pointer;
    if (top !== 'ownership' || spec.code === 'unknown-key') {
      out.push(spec);
    } else if (kind === undefined) {
      out.push({ ...spec, message: `'ownership' of project file ${display} must map kinds to filters, ${OWNERSHIP_EXAMPLE}` });
    } else if (!seen.has(kind)) {
      seen.add(kind);
      out.push({
        code: spec.code,
        pointer: ['ownership', kind],
        message:
          `'ownership.${kind}' of project file ${display} must be one filter or a list of filters in the API's syntax ` +
          `property==value (equals) or property=@value (contains), ${OWNERSHIP_EXAMPLE}`,
      });
    }
  }
  return out;
}

/** The sections of the project file whose keys are names, and what each names. */
const NAMED_SECTIONS = [
  ['targets', 'target'],
  ['jwks', 'JWK Set source'],
] as const;

/**
 * The names of the project file (targets, JWK Set sources, drift.ignore objects) that break the rules of manifest
 * names (src/manifest/collect.ts): empty, or holding a control, zero-width or bidi character
 * (a line break in a target name would reach the CI's step outputs and logs). Each is said
 * at its key, escaped.
 */
function checkNames(value: unknown): DiagnosticSpec[] {
  const specs: DiagnosticSpec[] = [];
  if (typeof value !== 'object' || value === null) return specs;
  for (const [section, what] of NAMED_SECTIONS) {
    const map: unknown = Object.hasOwn(value, section) ? (value as Record<string, unknown>)[section] : undefined;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    for (const name of Object.keys(map)) {
      if (name === '') {
        specs.push({ code: 'invalid-name', pointer: [section, name], at: 'key', message: `a ${what} name must not be empty` });
      } else if (hasInvisible(name)) {
        specs.push({
          code: 'invalid-name',
          pointer: [section, name],
          at: 'key',
          message: `${what} name ${escapeInvisible(JSON.stringify(name))} holds a control, zero-width or bidi character: names may hold visible characters and spaces only`,
        });
      }
    }
  }
  // The object names of drift.ignore entries (`<kind>/<name>`).
  const drift: unknown = Object.hasOwn(value, 'drift') ? (value as Record<string, unknown>).drift : undefined;
  const ignore: unknown = typeof drift === 'object' && drift !== null && Object.hasOwn(drift, 'ignore') ? (drift as Record<string, unknown>).ignore : undefined;
  if (Array.isArray(ignore)) {
    ignore.forEach((entry: unknown, i) => {
      const object: unknown = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).object : undefined;
      if (typeof object === 'string' && hasInvisible(object)) {
        specs.push({
          code: 'invalid-name',
          pointer: ['drift', 'ignore', String(i), 'object'],
          message: `drift.ignore object ${escapeInvisible(JSON.stringify(object))} holds a control, zero-width or bidi character: names may hold visible characters and spaces only`,
        });
      }
    });
  }
  return specs;
}

const list = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.map(String) : []);

/** A project file as read: the configuration and every problem found in it. */
export interface ProjectReading {
  /**
   * The configuration; when `diagnostics` holds errors, the parts that are valid (manifest
   * paths that are strings, targets with a URL, drift entries of the right shape), so that
   * the manifests can be checked in the same run.
   */
  readonly project: ProjectConfig;
  /** Every problem of the project file at once (YAML, schema, names, drift entries), located. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads the project file: `configFile` when given (relative to `cwd`), else `gwops.yaml` in
 * `cwd` when it exists, else the defaults. Problems of its content are diagnostics, all of
 * them at once: a schema error does not hide a bad name or drift entry.
 * @throws InputError when the file given cannot be read
 */
export function readProject(cwd: string, configFile?: string): ProjectReading {
  const file = configFile !== undefined ? path.resolve(cwd, configFile) : path.join(cwd, PROJECT_FILE);
  if (configFile === undefined && !existsSync(file)) return { project: defaultProject(), diagnostics: [] };
  let decoded: ReturnType<typeof decodeUtf8>;
  try {
    decoded = decodeUtf8(readFileBounded(file, FILE_LIMITS.project));
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    throw new InputError(`cannot read project file '${configFile ?? PROJECT_FILE}': ${error.problem}`, {
      cause: error,
    });
  }
  const display = path.relative(cwd, file) || file;
  const diagnostics: Diagnostic[] = [];
  const docs = parseFile({ file: display, dir: path.dirname(file), ...decoded }, diagnostics);
  const doc = docs[0];
  const value: unknown = doc?.value ?? {};
  if (doc && docs.length === 1) {
    const validate = validateProject(value);
    if (validate.errors) {
      // Names are said once each, by checkNames, instead of the schema's pattern.
      const errors = validate.errors.filter((e) => e.propertyName === undefined && !e.schemaPath.includes('/propertyNames'));
      for (const spec of ownershipOnce(schemaDiagnosticsWith(errors, undefined, `project file ${display}`), display)) {
        diagnostics.push(makeDiagnostic(doc, spec));
      }
    }
    for (const spec of checkNames(value)) diagnostics.push(makeDiagnostic(doc, spec));
  } else if (docs.length > 1 && docs[1]) {
    diagnostics.push(
      makeDiagnostic(docs[1], { code: 'not-an-object', pointer: [], message: 'a project file holds exactly one YAML document' }),
    );
  }
  const valid = diagnostics.length === 0;
  const raw = (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  // Drift entries are checked even when the schema found problems elsewhere (those of the right shape).
  const shaped = wellShapedDrift(raw.drift);
  const drift = parseDriftSettings(doc ? { ignore: shaped.map(([entry]) => entry) } : undefined);
  for (const problem of drift.problems) {
    const index = shaped[problem.index]?.[1] ?? problem.index;
    if (doc) diagnostics.push(makeDiagnostic(doc, { code: 'invalid-value', pointer: ['drift', 'ignore', String(index), problem.field], message: problem.message }));
  }
  // Where each entry is written, for the warnings about entries that match nothing (drift-ignore-check.ts);
  // aligned with the entries when every one is well formed, the only case in which a run goes on.
  const settings = doc ? { ...drift.settings, at: ignoreLocations(doc, raw) } : drift.settings;
  return { project: projectConfig(file, valid ? raw : validParts(raw), settings), diagnostics };
}

/**
 * Reads the project file as {@link readProject} does.
 * @throws InputError when the file given is unreadable, or the file is not valid YAML or
 *   does not match `schemas/project.schema.json` (the message lists every problem with
 *   file:line:column).
 */
export function loadProject(cwd: string, configFile?: string): ProjectConfig {
  const { project, diagnostics } = readProject(cwd, configFile);
  if (diagnostics.length > 0) throw invalidProject(diagnostics);
  return project;
}

/** The error of a project file with problems: every one of them, with file:line:column. */
export function invalidProject(diagnostics: readonly Diagnostic[]): InputError {
  const lines = diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`);
  return new InputError(`invalid project file:\n  ${lines.join('\n  ')}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `drift.ignore` entries whose fields have the types the schema asks for, each with its index in the file. */
function wellShapedDrift(drift: unknown): [Record<string, unknown>, number][] {
  if (!isRecord(drift) || !Array.isArray(drift.ignore)) return [];
  const out: [Record<string, unknown>, number][] = [];
  drift.ignore.forEach((e: unknown, i) => {
    if (isRecord(e) && typeof e.object === 'string' && typeof e.until === 'string' && typeof e.reason === 'string') out.push([e, i]);
  });
  return out;
}

/** Of a project file value with problems, the parts {@link projectConfig} can read safely. */
function validParts(raw: Record<string, unknown>): Record<string, unknown> {
  const strings = (v: unknown): boolean => (typeof v === 'string' && v !== '') || (Array.isArray(v) && v.every((p) => typeof p === 'string' && p !== ''));
  const targets = isRecord(raw.targets)
    ? Object.fromEntries(Object.entries(raw.targets).filter(([name, t]) => name !== '' && !hasInvisible(name) && isRecord(t) && typeof t.url === 'string').map(([name, t]) => [name, { url: (t as { url: string }).url }]))
    : {};
  return { ...(strings(raw.manifests) ? { manifests: raw.manifests } : {}), targets };
}

/** The configuration of a project file `file` from its (valid) value, paths resolved against its directory. */
function projectConfig(file: string, value: Record<string, unknown>, drift: DriftSettings): ProjectConfig {
  const dir = path.dirname(file);
  const raw = value as {
    manifests?: unknown;
    targets?: Record<string, { url: string; apiKeyEnv?: string; apiKeyFile?: string; caFile?: string; timeout?: number; variant?: Variant; overlays?: unknown }>;
    ownership?: Partial<Record<ResourceType, unknown>>;
    allowExternalLinks?: boolean;
    massDeleteShare?: number;
    jwks?: Record<string, { url: string; caFile?: string; timeoutMs?: number }>;
  };
  const targets: Record<string, TargetConfig> = {};
  for (const [name, t] of Object.entries(raw.targets ?? {})) {
    const target: TargetConfig = { url: t.url };
    if (t.apiKeyEnv !== undefined) target.apiKeyEnv = t.apiKeyEnv;
    if (t.apiKeyFile !== undefined) target.apiKeyFile = path.resolve(dir, t.apiKeyFile);
    if (t.caFile !== undefined) target.caFile = path.resolve(dir, t.caFile);
    if (t.timeout !== undefined) target.timeout = t.timeout;
    if (t.variant !== undefined) target.variant = t.variant;
    if (t.overlays !== undefined) target.overlays = list(t.overlays).map((p) => path.resolve(dir, p));
    setOwnMember(targets, name, target);
  }
  const ownership: Partial<Record<ResourceType, string[]>> = {};
  for (const [kind, filters] of Object.entries(raw.ownership ?? {}) as [ResourceType, unknown][]) {
    ownership[kind] = list(filters);
  }
  const jwks: Record<string, JwksSourceConfig> = {};
  for (const [name, source] of Object.entries(raw.jwks ?? {})) {
    setOwnMember(jwks, name, {
      url: source.url,
      ...(source.caFile !== undefined ? { caFile: path.resolve(dir, source.caFile) } : {}),
      ...(source.timeoutMs !== undefined ? { timeoutMs: source.timeoutMs } : {}),
    });
  }
  return {
    file,
    manifests: list(raw.manifests).map((p) => path.resolve(dir, p)),
    targets,
    ownership,
    allowExternalLinks: raw.allowExternalLinks ?? false,
    massDeleteShare: raw.massDeleteShare ?? 0.5,
    jwks,
    drift,
  };
}

/** Where each `drift.ignore` entry's `object` and `attribute` are written (for the warnings of drift-ignore-check.ts). */
function ignoreLocations(doc: Parameters<typeof makeDiagnostic>[0], value: unknown): NonNullable<DriftSettings['at']> {
  const drift = typeof value === 'object' && value !== null && 'drift' in value ? value.drift : undefined;
  const entries = typeof drift === 'object' && drift !== null && 'ignore' in drift && Array.isArray(drift.ignore) ? (drift.ignore as unknown[]) : [];
  const at = (index: number, field: string): { file: string; line: number; column: number; pointer: string } => {
    const { file, line, column, pointer } = makeDiagnostic(doc, { code: 'invalid-value', pointer: ['drift', 'ignore', String(index), field], message: '' });
    return { file: file ?? '', line: line ?? 1, column: column ?? 1, pointer: pointer ?? '' };
  };
  return entries.map((entry, index) => ({
    object: at(index, 'object'),
    ...(typeof entry === 'object' && entry !== null && 'attribute' in entry ? { attribute: at(index, 'attribute') } : {}),
  }));
}
