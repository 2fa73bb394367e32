/**
 * `{ fromJwks }` values resolved at `plan`, `apply` and `drift` time
 * (docs/manifest-reference.md "Token keys from a JWKS"): every JWK Set the manifests name is
 * fetched once per run (one fetch per `jwks:` source of gwops.yaml, or per URL), the key
 * each reference selects is checked against the algorithm declared next to it and
 * converted to PEM, and the PEM becomes the declared value of the attribute. Every problem
 * is reported at once, located at the reference, naming the URL; the caller stops before
 * any gateway is contacted.
 */
import { withoutCredentials } from '../../core/secrets.js';
import { InputError, FileReadError } from '../../core/errors.js';
import { FILE_LIMITS, readTextBounded } from '../../core/files.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { JwksSourceConfig } from '../../manifest/project.js';
import type { AttributeObject, ManifestDocument } from '../../manifest/types.js';
import type { JwksRef, JwksReference } from '../../manifest/jwks-refs.js';
import type { JwkSet, KeySelector } from '../../jwks/keys.js';
import { JwkProblem, checkKeyType, jwkThumbprint, selectKey } from '../../jwks/keys.js';
import { jwkToPem } from '../../jwks/node-keys.js';
import type { JwksFetchOptions } from './jwks-fetch.js';
import { JwksFetchProblem, fetchJwks } from './jwks-fetch.js';

/** The JWK Sets of one run, once fetched: what plans need to name keys. */
export interface ResolvedJwks {
  /** The documents with every `{ fromJwks }` replaced by its PEM (the others unchanged). */
  readonly documents: ManifestDocument[];
  /** RFC 7638 thumbprint → kid, over every key of every JWK Set fetched. */
  readonly kids: ReadonlyMap<string, string>;
  /** URLs fetched, one per source, in the order first named. */
  readonly fetched: readonly string[];
}

/** Fetches one JWK Set (injected in tests that count fetches without a server). */
export type JwksFetcher = (url: string, options: JwksFetchOptions) => Promise<JwkSet>;

/** Where a reference's set comes from: its cache key, URL and fetch options. */
function sourceOf(ref: JwksRef, sources: Readonly<Record<string, JwksSourceConfig>>): { key: string; url: string; options: JwksFetchOptions } | undefined {
  if (ref.source !== undefined) {
    const config = Object.hasOwn(sources, ref.source) ? sources[ref.source] : undefined;
    if (!config) return undefined;
    let ca: string | undefined;
    if (config.caFile !== undefined) {
      try {
        ca = readTextBounded(config.caFile, FILE_LIMITS.ca);
      } catch (error) {
        if (!(error instanceof FileReadError)) throw error;
        throw new InputError(`cannot read caFile '${config.caFile}' of jwks source '${ref.source}' in gwops.yaml: ${error.problem}`);
      }
    }
    return { key: `source:${ref.source}`, url: config.url, options: { ca, timeoutMs: config.timeoutMs } };
  }
  const url = ref.url ?? '';
  return { key: `url:${url}`, url, options: {} };
}

function located(reference: JwksReference, code: 'jwks-unavailable' | 'jwks-key', message: string): Diagnostic {
  const { file, line, column, pointer } = reference.location;
  return { severity: 'error', code, file, line, column, pointer, message };
}

function replaced(document: ManifestDocument, segments: readonly string[], value: string): ManifestDocument {
  const attributes = structuredClone(document.attributes);
  let node: unknown = attributes;
  for (const s of segments.slice(0, -1)) node = Array.isArray(node) ? node[Number(s)] : (node as AttributeObject)[s];
  const last = segments[segments.length - 1];
  if (last !== undefined && typeof node === 'object' && node !== null) (node as AttributeObject)[last] = value;
  return { ...document, attributes };
}

/**
 * Fetches every JWK Set the references name (once per source or URL, concurrently),
 * selects and checks each reference's key and puts its PEM in place.
 * @param documents the loaded documents (those the references point into)
 * @param sources the `jwks` entries of gwops.yaml (their `caFile` absolute)
 * @returns the resolved documents and the kids of the fetched keys, with `problems`
 *   (located diagnostics naming the URL) when any reference could not be resolved
 * @throws InputError when a source's caFile cannot be read
 */
export async function resolveJwksReferences(
  documents: readonly ManifestDocument[],
  references: readonly JwksReference[],
  sources: Readonly<Record<string, JwksSourceConfig>>,
  fetcher: JwksFetcher = fetchJwks,
): Promise<ResolvedJwks & { readonly problems: Diagnostic[] }> {
  const sets = new Map<string, { url: string; result: Promise<JwkSet | JwksFetchProblem> }>();
  const fetched: string[] = [];
  const planned = references.map((reference) => {
    const source = sourceOf(reference.ref, sources);
    if (source && !sets.has(source.key)) {
      fetched.push(source.url);
      const result = fetcher(source.url, source.options).catch((error: unknown) =>
        error instanceof JwksFetchProblem ? error : new JwksFetchProblem(error instanceof Error ? error.message : String(error)),
      );
      sets.set(source.key, { url: source.url, result });
    }
    return { reference, source };
  });
  const problems: Diagnostic[] = [];
  const kids = new Map<string, string>();
  const byDocument = new Map<ManifestDocument, ManifestDocument>();
  for (const { reference, source } of planned) {
    const where = `${reference.document.kind} '${reference.document.name}'`;
    const attribute = reference.segments.join('.');
    if (!source) {
      problems.push(located(reference, 'jwks-key', `${attribute} of ${where}: jwks source '${reference.ref.source ?? ''}' is not defined in gwops.yaml`));
      continue;
    }
    const entry = sets.get(source.key);
    const set = entry ? await entry.result : new JwksFetchProblem('not fetched');
    if (set instanceof JwksFetchProblem) {
      problems.push(located(reference, 'jwks-unavailable', `${attribute} of ${where}: cannot use JWKS ${withoutCredentials(source.url)}: ${set.message}`));
      continue;
    }
    for (const key of set.keys) {
      try {
        if (key.kid !== undefined) kids.set(jwkThumbprint(key), key.kid);
      } catch {
        // A key type without a thumbprint cannot be a gateway key either.
      }
    }
    try {
      const selector: KeySelector = reference.ref.kid !== undefined ? { kid: reference.ref.kid } : { alg: reference.ref.alg ?? reference.algorithm };
      const key = selectKey(set, selector);
      checkKeyType(key, reference.algorithm);
      const pem = jwkToPem(key);
      const current = byDocument.get(reference.document) ?? reference.document;
      byDocument.set(reference.document, replaced(current, reference.segments, pem));
    } catch (error) {
      if (!(error instanceof JwkProblem)) throw error;
      problems.push(located(reference, 'jwks-key', `${attribute} of ${where}: JWKS ${withoutCredentials(source.url)}: ${error.message}`));
    }
  }
  return { documents: documents.map((d) => byDocument.get(d) ?? d), kids, fetched, problems };
}
