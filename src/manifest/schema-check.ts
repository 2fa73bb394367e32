/**
 * Schema validation of manifest documents with ajv (draft 2020-12), compiled once per
 * process, and the translation of ajv's errors into diagnostics that say what would be
 * right (did-you-mean for unknown keys and enum values; docs/architecture.md "Habits").
 */
import { createRequire } from 'node:module';
import type Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { closest, distance } from 'fastest-levenshtein';
import { isResourceType, kindOf } from '../kinds/index.js';
import { SCHEMA_KINDS, documentSchema } from '../schema/index.js';
import type { JsonSchema, SchemaKind } from '../schema/index.js';
import type { DiagnosticSpec } from './positions.js';
import { pointerSegments } from './positions.js';
import { precompiledValidator, validatorDigest } from './precompiled.js';
import type { ScalarType } from './variables.js';
import { typedReference } from './variables.js';
import { JWKS_URL_PATTERN } from '../schema/kind-schema.js';

/**
 * The ajv options of every schema of the package itself (`schemas/`): all errors, with the
 * schema that failed (`verbose`), and no meta-schema check of the schema at run time (a
 * test checks each file against the draft 2020-12 meta-schema; checking it at each run
 * took longer than validating 1,000 manifests).
 */
export const PACKAGE_SCHEMA_OPTIONS = { allErrors: true, strict: false, verbose: true, validateSchema: false } as const;

/**
 * The ajv options of the document schemas. `optimize: false`: the optimiser pass costs more
 * time than it saves on manifests (measured ~40 %). `inlineRefs: false`: each `$defs` entry
 * is compiled once as a function of its own instead of once per `$ref` (halves the compile).
 * `validateSchema: false`: the schemas are the package's own, checked against the
 * meta-schema by a test, not at every run.
 */
const DOCUMENT_SCHEMA_OPTIONS = { ...PACKAGE_SCHEMA_OPTIONS, code: { optimize: false }, inlineRefs: false } as const;

/** The `$id` of a document kind's schema. */
export const documentSchemaId = (kind: SchemaKind): string => `https://gwops.dev/schemas/${kind}.schema.json`;

/**
 * An ajv instance holding every document schema (adding is cheap; each is compiled when
 * first asked for). `source`: keep the generated code, for {@link precompiledValidator}'s files.
 */
export function documentAjv(source = false): InstanceType<typeof Ajv2020.default> {
  const instance = newAjv({ ...DOCUMENT_SCHEMA_OPTIONS, code: { ...DOCUMENT_SCHEMA_OPTIONS.code, source } });
  for (const k of SCHEMA_KINDS) instance.addSchema(documentSchema(k));
  return instance;
}

let digest: string | undefined;

/** What the validators of the document schemas are compiled from ({@link validatorDigest}). */
export function documentSchemasDigest(): string {
  digest ??= validatorDigest(DOCUMENT_SCHEMA_OPTIONS, SCHEMA_KINDS.map(documentSchema));
  return digest;
}

/**
 * A new ajv instance (draft 2020-12). ajv is loaded on first use: a run whose validators are
 * all precompiled (src/manifest/precompiled.ts) never loads it.
 */
export function newAjv(options: ConstructorParameters<typeof Ajv2020.default>[0]): InstanceType<typeof Ajv2020.default> {
  const { default: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof Ajv2020;
  return new Ajv(options);
}

let ajv: InstanceType<typeof Ajv2020.default> | undefined;
const validators = new Map<SchemaKind, ValidateFunction>();

/**
 * The validator of a document kind, cached for the process: the one `npm run build`
 * precompiled ({@link precompiledValidator}) when it is there and made from these schemas,
 * else compiled on first use (compiling the large mapping schema took about a third of a
 * second, loading its precompiled code a twentieth).
 */
export function validatorFor(kind: SchemaKind): ValidateFunction {
  let fn = validators.get(kind);
  if (fn) return fn;
  fn = precompiledValidator(kind, documentSchemasDigest);
  if (!fn) {
    ajv ??= documentAjv();
    fn = ajv.getSchema(documentSchemaId(kind));
  }
  if (!fn) throw new Error(`schema of ${kind} did not compile`);
  validators.set(kind, fn);
  return fn;
}

/**
 * The nearest of `candidates` to `word` when it is plausibly a typo (case-insensitive
 * match, or an edit distance of at most a third of the word's length, minimum 2).
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0 || word === '') return undefined;
  const lower = word.toLowerCase();
  const caseMatch = candidates.find((c) => c.toLowerCase() === lower);
  if (caseMatch) return caseMatch;
  // A truncated or extended name (`host` for `hostName`) is a likelier intent than a near spelling.
  if (lower.length >= 3) {
    const prefix = candidates.filter((c) => c.toLowerCase().startsWith(lower) || lower.startsWith(c.toLowerCase()));
    if (prefix.length === 1) return prefix[0];
  }
  const best = closest(word, [...candidates]);
  const limit = word.length <= 4 ? 1 : Math.max(2, Math.floor(word.length / 3));
  return distance(word, best) <= limit ? best : undefined;
}

/** `: did you mean 'x'?` or `''`. */
export function suggestion(word: string, candidates: readonly string[]): string {
  const best = didYouMean(word, candidates);
  return best === undefined ? '' : `: did you mean '${best}'?`;
}

/** Dotted display path of attribute segments: `allowRules[0].pathPattern.pattern`. */
export function attributePath(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) out += /^\d+$/.test(s) ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'object':
      return 'a mapping (object)';
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      break;
  }
  return typeof value;
}

function expectedType(type: unknown): string {
  const one = (t: unknown): string => {
    switch (t) {
      case 'integer':
        return 'an integer';
      case 'array':
        return 'a list';
      case 'object':
        return 'a mapping (object)';
      case 'boolean':
        return 'a boolean (true or false)';
      default:
        return `a ${String(t)}`;
    }
  };
  return Array.isArray(type) ? type.map(one).join(' or ') : one(type);
}

/** What the subject of a diagnostic is called: `'entryPath.priority' in mapping 'shop-api'`. */
function subject(segments: readonly string[], label: string): string {
  if (segments.length === 1) return `'${segments[0] ?? ''}' of ${label}`;
  if (segments[0] === 'attributes') return `attribute '${attributePath(segments.slice(1))}' of ${label}`;
  if (segments[0] === 'relationships' && segments.length >= 2) return `relationship '${segments[1] ?? ''}' of ${label}`;
  return `'${attributePath(segments)}' of ${label}`;
}

/** True when the JSON pointer segments name a secret-bearing node (its value must never be printed). */
function isSecretSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as JsonSchema)['x-gwops-secret'] === true;
}

/**
 * Validates one document against its kind's schema and returns diagnostic specs (pointer
 * plus message; the caller locates them). Top-level `apiVersion`, `kind` and a missing
 * `name` are checked by the caller and skipped here.
 * @param label how the document is named in messages, e.g. `mapping 'shop-api'`
 */
export function schemaDiagnostics(kind: SchemaKind, value: unknown, label: string, isWholeReference?: (segments: readonly string[]) => boolean): DiagnosticSpec[] {
  const validate = validatorFor(kind);
  if (validate(value)) return [];
  if (isWholeReference && typeWholeReferences(validate.errors ?? [], value, isWholeReference) && validate(value)) return [];
  return schemaDiagnosticsWith(validate.errors ?? [], kind, label);
}

/** The scalar types a `type` or `enum` error says are expected (strings, objects and lists are not converted to). */
function expectedScalars(error: ErrorObject): ScalarType[] {
  const scalar = (t: unknown): t is ScalarType => t === 'integer' || t === 'number' || t === 'boolean' || t === 'null';
  if (error.keyword === 'type') {
    const type = (error.params as { type?: unknown }).type;
    return (Array.isArray(type) ? (type as unknown[]) : String(type).split(',')).filter(scalar);
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    return [...new Set<unknown>(allowed.map((v) => (v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : undefined)))].filter(scalar);
  }
  return [];
}

/**
 * Gives each value that was one whole `${...}` reference (`isWholeReference`) the scalar
 * type the schema expects where it complains about a string: an integer, a number, a
 * boolean (README.md "Variables"). Changes `value` in place.
 * @param errors the validator's errors of `value`
 * @returns true when any value was changed (validate again)
 */
export function typeWholeReferences(errors: readonly ErrorObject[], value: unknown, isWholeReference: (segments: readonly string[]) => boolean): boolean {
  let changed = false;
  for (const error of errors) {
    if (typeof error.data !== 'string') continue;
    const expected = expectedScalars(error);
    const segments = pointerSegments(error.instancePath);
    const key = segments.at(-1);
    if (expected.length === 0 || key === undefined || !isWholeReference(segments)) continue;
    let parent: unknown = value;
    for (const segment of segments.slice(0, -1)) parent = typeof parent === 'object' && parent !== null ? (parent as Record<string, unknown>)[segment] : undefined;
    if (typeof parent !== 'object' || parent === null || (parent as Record<string, unknown>)[key] !== error.data) continue;
    const typed = typedReference(error.data, expected);
    if (typed === undefined) continue;
    (parent as Record<string, unknown>)[key] = typed;
    changed = true;
  }
  return changed;
}

/**
 * Translates ajv errors of any schema into diagnostic specs.
 * @param kind the document kind when validating a manifest document (for relationship
 *   cardinality), undefined for other files (the project file)
 */
export function schemaDiagnosticsWith(errors: readonly ErrorObject[], kind: SchemaKind | undefined, label: string): DiagnosticSpec[] {
  const specs: DiagnosticSpec[] = [];
  const alternatives = new Set<DiagnosticSpec>();
  for (const error of errors) {
    // Branch errors of a secret's `anyOf` are summarised by the anyOf error itself.
    if (error.schemaPath.includes('/anyOf/') || error.schemaPath.includes('/oneOf/')) continue;
    const segments = pointerSegments(error.instancePath);
    const spec = translate(kind, error, segments, label);
    if (spec) specs.push(spec);
    if (spec && (error.keyword === 'oneOf' || error.keyword === 'anyOf')) alternatives.add(spec);
  }
  // A secret with a bad shape gets one message, not one per nested alternative (a
  // `{ fromJwks }` inside it keeps its own specific problems, such as a URL pattern).
  const secrets = specs.filter((s) => s.code === 'invalid-secret').map((s) => s.pointer.join('/'));
  if (secrets.length === 0) return specs;
  const under = (s: DiagnosticSpec): boolean => secrets.some((p) => s.pointer.join('/').startsWith(`${p}/`));
  return specs.filter((s) => s.code === 'invalid-secret' || (!secrets.includes(s.pointer.join('/')) && !(alternatives.has(s) && under(s))));
}

function translate(kind: SchemaKind | undefined, error: ErrorObject, segments: string[], label: string): DiagnosticSpec | undefined {
  const top = segments.length === 0;
  switch (error.keyword) {
    case 'required':
    case 'const':
      if (top || (segments.length === 1 && (segments[0] === 'apiVersion' || segments[0] === 'kind'))) return undefined;
      return { code: 'invalid-value', pointer: segments, message: `${subject(segments, label)} ${error.message ?? 'is invalid'}` };
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty?: unknown }).additionalProperty);
      const parent: JsonSchema | undefined = error.parentSchema;
      const candidates = Object.keys(parent?.properties ?? {});
      const pointer = [...segments, key];
      if (top) {
        return {
          code: 'unknown-key',
          pointer,
          at: 'key',
          message: `unknown key '${key}' in ${label}${suggestion(key, candidates) || `: allowed keys are ${candidates.join(', ')}`}`,
        };
      }
      if (segments.length === 1 && segments[0] === 'relationships') {
        const names = candidates.length ? candidates.join(', ') : 'none';
        return {
          code: 'unknown-relationship',
          pointer,
          at: 'key',
          message: `unknown relationship '${key}' of ${label}${suggestion(key, candidates) || `: relationships of a ${kind ?? 'document'} are ${names}`}`,
        };
      }
      if (segments[0] !== 'attributes') {
        return {
          code: 'unknown-key',
          pointer,
          at: 'key',
          message: `unknown key '${attributePath(pointer)}' in ${label}${suggestion(key, candidates)}`,
        };
      }
      return {
        code: 'unknown-attribute',
        pointer,
        at: 'key',
        message: `unknown attribute '${attributePath([...segments.slice(1), key])}' in ${label}${suggestion(key, candidates)}`,
      };
    }
    case 'enum': {
      const allowed = ((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map(String);
      const data = error.data;
      const shown = typeof data === 'string' ? `'${data}'` : JSON.stringify(data);
      const hint = typeof data === 'string' ? suggestion(data, allowed) : '';
      return {
        code: 'invalid-value',
        pointer: segments,
        message: `invalid value ${shown} for ${subject(segments, label)}: expected one of ${allowed.join(', ')}${hint ? hint.replace(/^: /, '; ') : ''}`,
      };
    }
    case 'type': {
      const rel = segments[0] === 'relationships' && segments.length === 2 ? segments[1] : undefined;
      if (rel !== undefined && kind !== undefined && isResourceType(kind)) {
        const def = kindOf(kind).relationships[rel];
        if (def?.cardinality === 'one' && Array.isArray(error.data)) {
          return {
            code: 'to-one-list',
            pointer: segments,
            message: `relationship '${rel}' of ${label} is to-one: give one ${def.target} name, not a list`,
          };
        }
        if (def?.cardinality === 'many' && typeof error.data === 'string') {
          return {
            code: 'invalid-type',
            pointer: segments,
            message: `relationship '${rel}' of ${label} is a list: write [${error.data}]`,
          };
        }
      }
      const expected = expectedType((error.params as { type?: unknown }).type);
      const what = top ? `a ${kind ?? 'project'} document` : subject(segments, label);
      return {
        code: top ? 'not-an-object' : 'invalid-type',
        pointer: segments,
        message: `${what} must be ${expected}, not ${describeType(error.data)}`,
      };
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const p = error.params as { comparison?: string; limit?: number };
      return {
        code: 'out-of-range',
        pointer: segments,
        message: `${subject(segments, label)} must be ${p.comparison ?? ''} ${String(p.limit)}, not ${JSON.stringify(error.data)}`,
      };
    }
    case 'minLength':
      return { code: 'invalid-value', pointer: segments, message: `${subject(segments, label)} must not be empty` };
    case 'pattern':
      // The URL of a JWK Set: said in words rather than as the pattern.
      if ((error.params as { pattern?: unknown }).pattern === JWKS_URL_PATTERN) {
        return { code: 'invalid-value', pointer: segments, message: `${subject(segments, label)} must be an https:// URL (plain http:// only to a loopback host: localhost, 127.0.0.0/8, [::1])` };
      }
      return { code: 'invalid-value', pointer: segments, message: `${subject(segments, label)} ${error.message ?? 'is invalid'}` };
    case 'uniqueItems': {
      const p = error.params as { i?: number; j?: number };
      const later = Math.max(p.i ?? 0, p.j ?? 0);
      const isRel = segments[0] === 'relationships';
      const item: unknown = Array.isArray(error.data) ? (error.data as unknown[])[later] : undefined;
      return {
        code: isRel ? 'duplicate-link' : 'invalid-value',
        pointer: [...segments, String(later)],
        message: isRel
          ? `${subject(segments, label)} lists '${String(item)}' twice: name each linked object once`
          : `${subject(segments, label)} lists the same item twice (items ${Math.min(p.i ?? 0, p.j ?? 0)} and ${later})`,
      };
    }
    case 'anyOf':
    case 'oneOf':
      if (isSecretSchema(error.parentSchema)) {
        return {
          code: 'invalid-secret',
          pointer: segments,
          message: (error.parentSchema as JsonSchema)['x-gwops-public-key']
            ? `secret ${subject(segments, label)} must be a string, { fromEnv: NAME }, { fromFile: path } or { fromJwks: { url: https://… or source: NAME, kid: KEY-ID or alg: RS_256 } }`
            : `secret ${subject(segments, label)} must be a string, { fromEnv: NAME } or { fromFile: path }`,
        };
      }
      if (typeof error.parentSchema === 'object' && error.parentSchema !== null && (error.parentSchema as JsonSchema)['x-gwops-file'] === true) {
        return { code: 'invalid-value', pointer: segments, message: `${subject(segments, label)} must be a string (the PEM) or { fromFile: path }` };
      }
      return { code: 'invalid-value', pointer: segments, message: `${subject(segments, label)} ${error.message ?? 'is invalid'}` };
    default:
      return {
        code: 'invalid-value',
        pointer: segments,
        message: `${subject(segments, label)} ${error.message ?? 'is invalid'}`,
      };
  }
}
