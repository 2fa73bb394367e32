/**
 * `{ fromJwks }` references in manifests (docs/manifest-reference.md "Token keys from a
 * JWKS"), found and checked offline: the attributes that may hold one carry the schema
 * mark `x-gwops-public-key`, which names the sibling attribute with the algorithm. The
 * loader checks what needs no network (the algorithm takes a public key, a `source` is
 * defined in gwops.yaml) and hands the references on; `plan`, `apply` and `drift` fetch
 * them (src/operations/steps/jwks-resolve.ts), `validate` never does.
 */
import { KINDS, kindOfDocument } from '../kinds/index.js';
import { urlCredentials, withoutCredentials } from '../core/secrets.js';
import { keyTypeFor } from '../jwks/keys.js';
import type { ManifestDocument } from './types.js';
import { publicKeyAttributes } from '../schema/index.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Entry } from './entries.js';
import { entryDiagnostic, labelOf } from './entries.js';
import type { ProjectConfig } from './project.js';
import { forEachAt } from './resolve.js';
import type { Resolved } from './rules.js';
import { attributePath, suggestion } from './schema-check.js';
import { ownMember } from '../core/own-member.js';

/** A `{ fromJwks }` value as written (checked by the schema: `url` or `source`, and `kid` or `alg`). */
export interface JwksRef {
  readonly url?: string;
  readonly source?: string;
  readonly kid?: string;
  readonly alg?: string;
}

/** One `{ fromJwks }` value found in the resolved documents. */
export interface JwksReference {
  /** The document that holds it (an element of `LoadResult.documents`). */
  readonly document: ManifestDocument;
  /** Attribute path segments (array indexes as decimal strings). */
  readonly segments: readonly string[];
  readonly ref: JwksRef;
  /** The gateway algorithm declared next to it (e.g. `RS_256`). */
  readonly algorithm: string;
  /** Where the reference is written. */
  readonly location: { readonly file: string; readonly line: number; readonly column: number; readonly pointer: string };
}

type Location = JwksReference['location'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function locationOf(entry: Entry, pointer: readonly string[]): Location {
  const d = entryDiagnostic(entry, { code: 'jwks-key', pointer, message: '' });
  return { file: d.file ?? '', line: d.line ?? 1, column: d.column ?? 1, pointer: d.pointer ?? '' };
}

type MarkedPath = { readonly segments: readonly string[]; readonly algorithm: string };

/** {@link markedPaths} by kind (asked for about every document twice). */
const markedPathsByKind = new Map<string, readonly MarkedPath[]>();

function markedPaths(kind: string): readonly MarkedPath[] {
  let paths = markedPathsByKind.get(kind);
  if (!paths) {
    const type = kindOfDocument(kind).type;
    paths = publicKeyAttributes(type).map((p) => ({ segments: p.segments, algorithm: p.schema['x-gwops-public-key']?.algorithm ?? '' }));
    markedPathsByKind.set(kind, paths);
  }
  return paths;
}

/**
 * Where each `fromJwks` object of the entries (templates included) is written, keyed by
 * the object itself: a mapping that inherits the reference from a template is located at
 * the template. Call after secrets are resolved (which may copy attributes) and before
 * templates are merged.
 */
export function locateJwksReferences(entries: readonly Entry[]): WeakMap<object, Location> {
  const found = new WeakMap<object, Location>();
  for (const entry of entries) {
    for (const { segments } of markedPaths(entry.kind)) {
      forEachAt(entry.value.attributes, segments, (at, value) => {
        if (isObject(value) && isObject(value.fromJwks)) found.set(value.fromJwks, locationOf(entry, ['attributes', ...at]));
      });
    }
  }
  return found;
}

/**
 * The `{ fromJwks }` references of the resolved documents, checked offline: the algorithm
 * declared next to the reference must take a public key (an `HS_*` key is a passphrase:
 * `fromEnv`/`fromFile`), a `source` must be a `jwks` entry of the project file, and the
 * URL read (the reference's or its source's) must carry no user name or password, as the
 * gateway URL may not (a JWK Set is public; the URL is shown without them). Problems are
 * appended to `out` (located at the reference); the credentials found are appended to
 * `secrets`, for the run's redactor, never to be printed.
 */
export function collectJwksReferences(
  resolved: readonly Resolved[],
  located: WeakMap<object, Location>,
  project: ProjectConfig,
  out: Diagnostic[],
  secrets: string[] = [],
): JwksReference[] {
  if (!KINDS.some((k) => publicKeyAttributes(k.type).length > 0)) return [];
  const references: JwksReference[] = [];
  const sources = Object.keys(project.jwks);
  for (const { doc, entry } of resolved) {
    for (const { segments, algorithm: algorithmAttribute } of markedPaths(doc.kind)) {
      forEachAt(doc.attributes, segments, (at, value, parent) => {
        if (!isObject(value) || !isObject(value.fromJwks)) return;
        const raw = value.fromJwks;
        const location = located.get(raw) ?? locationOf(entry, ['attributes', ...at]);
        const report = (code: 'jwks-algorithm' | 'jwks-source-unknown' | 'jwks-credentials', message: string): void => {
          out.push({ severity: 'error', code, file: location.file, line: location.line, column: location.column, pointer: location.pointer, message });
        };
        const subject = `attribute '${attributePath(at)}' of ${labelOf(doc.kind, doc.name)}`;
        const sibling = [...at.slice(0, -1), algorithmAttribute];
        const algorithm = parent[algorithmAttribute];
        if (typeof algorithm !== 'string') {
          report('jwks-algorithm', `${subject} reads a key with { fromJwks }: declare '${attributePath(sibling)}' (for example RS_256) so that the key's type can be checked`);
          return;
        }
        if (keyTypeFor(algorithm) === undefined) {
          report(
            'jwks-algorithm',
            `${subject} reads a public key with { fromJwks }, but ${attributePath(sibling)} ${algorithm} takes a passphrase: use { fromEnv: NAME } or { fromFile: path }`,
          );
          return;
        }
        const ref: JwksRef = {
          ...(typeof raw.url === 'string' ? { url: raw.url } : {}),
          ...(typeof raw.source === 'string' ? { source: raw.source } : {}),
          ...(typeof raw.kid === 'string' ? { kid: raw.kid } : {}),
          ...(typeof raw.alg === 'string' ? { alg: raw.alg } : {}),
        };
        if (ref.source !== undefined && !Object.hasOwn(project.jwks, ref.source)) {
          report(
            'jwks-source-unknown',
            `${subject} names jwks source '${ref.source}', which gwops.yaml does not define${
              suggestion(ref.source, sources) || (sources.length ? ` (sources: ${sources.join(', ')})` : ': add it under jwks: with its url')
            }`,
          );
          return;
        }
        const source = ref.source === undefined ? undefined : ownMember(project.jwks, ref.source);
        const url = source?.url ?? ref.url;
        const credentials = url === undefined ? [] : urlCredentials(url);
        if (url !== undefined && credentials.length > 0) {
          secrets.push(...credentials);
          const where = source ? `jwks source '${ref.source ?? ''}' of gwops.yaml` : 'its url';
          report(
            'jwks-credentials',
            `${subject} reads a JWKS from ${withoutCredentials(url)} with a user name or password in ${where}: a JWK Set is public, remove them from the URL (they are not shown)`,
          );
          return;
        }
        references.push({ document: doc, segments: at, ref, algorithm, location });
      });
    }
  }
  return references;
}
