/**
 * Loads the golden cases of `test/golden/<case>/` and plans them the way `gwops plan`
 * does (`prepare` and `readAndPlan` in src/operations/steps/pipeline.ts), with the gateway replaced by
 * the case's `live.json`. The layout of a case folder is described in golden.test.ts.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { resourcesOf } from '../../src/api/documents.js';
import { matchesFilter, parseFilters } from '../../src/api/filter.js';
import type { ApiResource } from '../../src/gateway/index.js';
import { parseJwkSet } from '../../src/jwks/keys.js';
import { NODE_PUBLIC_KEYS } from '../../src/jwks/node-keys.js';
import { resolveJwksReferences } from '../../src/operations/steps/jwks-resolve.js';
import { KINDS, kindByCollection, kindExistsIn } from '../../src/kinds/index.js';
import type { Diagnostic, LoadResult } from '../../src/manifest/index.js';
import { formatDiagnostics, loadManifests } from '../../src/manifest/index.js';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import type { ListClient } from '../../src/operations/steps/fetch.js';
import { fetchLiveLists } from '../../src/operations/steps/fetch.js';
import { kindsToFetch, ownershipPredicate } from '../../src/engine/fetch-scope.js';
import { liveState } from '../../src/engine/live.js';
import type { State } from '../../src/engine/model.js';
import { buildPlan } from '../../src/engine/plan.js';
import type { Plan } from '../../src/engine/plan-types.js';

export const GOLDEN_DIR = new URL('./', import.meta.url);

/** What `options.json` of a case may say (every member optional; unknown members are an error). */
export interface CaseOptions {
  /** `--prune`. */
  readonly prune?: boolean;
  /** `--allow-mass-delete`. */
  readonly allowMassDelete?: boolean;
  /** The run's environment: values of `${VAR}` and of `{ fromEnv: VAR }` secret sources. */
  readonly env?: Readonly<Record<string, string>>;
  /** The gateway's validator messages as diagnostics, as `gwops plan` maps them to manifests (`locateMessages`); shown in `plan.md`. */
  readonly validatorMessages?: readonly Diagnostic[];
}

const OPTION_KEYS: readonly string[] = ['prune', 'allowMassDelete', 'env', 'validatorMessages'] satisfies (keyof CaseOptions)[];

export interface GoldenCase {
  readonly name: string;
  readonly dir: URL;
  readonly options: CaseOptions;
  readonly loaded: LoadResult;
  readonly desired: State;
  readonly live: State;
  readonly plan: Plan;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJson(url: URL): unknown {
  return JSON.parse(readFileSync(url, 'utf8')) as unknown;
}

/** The case folders, sorted. */
export function caseNames(): string[] {
  return readdirSync(GOLDEN_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

function readOptions(dir: URL): CaseOptions {
  const url = new URL('options.json', dir);
  if (!existsSync(url)) return {};
  const value = readJson(url);
  if (!isRecord(value)) throw new Error(`${url.pathname}: not a JSON object`);
  const unknown = Object.keys(value).filter((k) => !OPTION_KEYS.includes(k));
  if (unknown.length > 0) throw new Error(`${url.pathname}: unknown option ${unknown.join(', ')} (known: ${OPTION_KEYS.join(', ')})`);
  const { prune, allowMassDelete, env, validatorMessages } = value;
  const wrong = (member: string, expected: string): Error => new Error(`${url.pathname}: ${member} must be ${expected}`);
  if (prune !== undefined && typeof prune !== 'boolean') throw wrong('prune', 'true or false');
  if (allowMassDelete !== undefined && typeof allowMassDelete !== 'boolean') throw wrong('allowMassDelete', 'true or false');
  if (env !== undefined && !(isRecord(env) && Object.values(env).every((v) => typeof v === 'string'))) throw wrong('env', 'an object of strings');
  if (validatorMessages !== undefined && !(Array.isArray(validatorMessages) && validatorMessages.every(isRecord))) {
    throw wrong('validatorMessages', 'an array of messages');
  }
  return {
    ...(prune !== undefined ? { prune } : {}),
    ...(allowMassDelete !== undefined ? { allowMassDelete } : {}),
    ...(env !== undefined ? { env: env as Record<string, string> } : {}),
    // Diagnostics (severity, code, file, line, column, pointer, object, message), as written.
    ...(validatorMessages !== undefined ? { validatorMessages: validatorMessages as unknown as Diagnostic[] } : {}),
  };
}

/**
 * `live.json`: per collection (`mappings`, `virtual-hosts`, ...), the body of the
 * gateway's answer to `GET /configuration/{collection}` (`{ "data": [...] }`), checked
 * by the REST client's own parser. A collection left out is empty.
 */
function readLive(dir: URL): Map<string, ApiResource[]> {
  const url = new URL('live.json', dir);
  const value = readJson(url);
  if (!isRecord(value)) throw new Error(`${url.pathname}: not a JSON object`);
  const lists = new Map<string, ApiResource[]>();
  for (const [collection, body] of Object.entries(value)) {
    const kind = kindByCollection(collection);
    if (!kind) throw new Error(`${url.pathname}: '${collection}' is not a collection (known: ${KINDS.map((k) => k.collection).join(', ')})`);
    const resources = resourcesOf(body);
    const stray = resources.find((r) => r.type !== kind.type);
    if (stray) throw new Error(`${url.pathname}: ${collection} holds a resource of type '${stray.type}'`);
    lists.set(collection, resources);
  }
  return lists;
}

/** A gateway that answers list calls from `live.json`, applying the API's filters as the gateway does. */
function caseGateway(lists: ReadonlyMap<string, readonly ApiResource[]>): ListClient {
  return {
    list(collection, filters, { project }) {
      const filter = parseFilters(filters);
      const properties = kindByCollection(collection)?.filterProperties;
      const matching = (lists.get(collection) ?? []).filter((r) => matchesFilter(filter, r, properties));
      return Promise.resolve(matching.map(project));
    },
    readSingleton(path) {
      const [one] = lists.get(path) ?? [];
      return one ? Promise.resolve(one) : Promise.reject(new Error(`live.json has no ${path}`));
    },
  };
}

function diagnosticsError(name: string, diagnostics: readonly Diagnostic[]): Error {
  return new Error(`golden case ${name}: the manifests must load without diagnostics:\n${formatDiagnostics(diagnostics, 'text')}`);
}

/**
 * Plans one case: `loadManifests` on `manifests/` (with `gwops.yaml` of the case folder
 * when there is one), then the same steps as `readAndPlan`.
 * @throws Error when the manifests have any diagnostic, or a case file is malformed
 */
export async function loadCase(name: string): Promise<GoldenCase> {
  const dir = new URL(`${name}/`, GOLDEN_DIR);
  const options = readOptions(dir);
  const loaded = await loadManifests({ paths: ['manifests'], cwd: fileURLToPath(dir), env: options.env ?? {} });
  if (loaded.diagnostics.length > 0) throw diagnosticsError(name, loaded.diagnostics);
  // `{ fromJwks }` values read the case's `jwks.json` (URL → JWK Set) instead of the network.
  const sets = existsSync(new URL('jwks.json', dir)) ? readJson(new URL('jwks.json', dir)) : {};
  const jwks = await resolveJwksReferences(loaded.documents, loaded.jwksReferences, loaded.project.jwks, (url) =>
    isRecord(sets) && isRecord(sets[url]) ? Promise.resolve(parseJwkSet(sets[url])) : Promise.reject(new Error(`no JWK Set for ${url} in jwks.json`)),
  );
  if (jwks.problems.length > 0) throw diagnosticsError(name, jwks.problems);
  const desired = desiredState(jwks.documents);

  const scope = loaded.project.ownership;
  const available = KINDS.filter((k) => kindExistsIn(k, loaded.variant)).map((k) => k.type);
  const fetched = await fetchLiveLists(caseGateway(readLive(dir)), kindsToFetch(desired, scope, available), desired, scope);
  const live = liveState(fetched, identityHandles(desired));
  const plan = buildPlan(desired, live, {
    prune: options.prune === true,
    isOwned: ownershipPredicate(scope),
    allowMassDelete: options.allowMassDelete === true,
    massDeleteShare: loaded.project.massDeleteShare,
    keyNames: jwks.kids,
    publicKeys: NODE_PUBLIC_KEYS,
  });
  return { name, dir, options, loaded, desired, live, plan };
}

/**
 * Compares `actual` with the golden file at `url`; with UPDATE_GOLDEN=1 (or when the file is
 * missing, which then fails the test so the new file gets reviewed) writes it instead.
 */
export function golden(url: URL, actual: string): void {
  const update = process.env.UPDATE_GOLDEN === '1';
  if (update || !existsSync(url)) {
    writeFileSync(url, actual);
    if (!update) throw new Error(`golden file ${url.pathname} was missing and has been written: check it in`);
    return;
  }
  expect(actual).toBe(readFileSync(url, 'utf8'));
}
