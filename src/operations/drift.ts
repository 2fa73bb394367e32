/**
 * `gwops drift` as a function that returns data: the plan against the live state (never
 * executed), the configurations list for who and when, and the drift report built from
 * them with the project's `drift.ignore` entries (README.md "Drift").
 */
import { NODE_PUBLIC_KEYS } from '../jwks/node-keys.js';
import type { AddedDocument, AdoptResult } from '../adopt/index.js';
import { addedObjectDocuments, adoptDrift } from '../adopt/index.js';
import { withSession } from '../gateway/index.js';
import { attributeDrift } from '../engine/drift-attribution.js';
import { entriesInForce } from '../manifest/drift-ignore.js';
import type { DriftEntry, DriftReport } from '../engine/drift-report.js';
import { buildDriftReport } from '../engine/drift-report.js';
import { adoptableReport, findDriftBase } from '../engine/drift-base.js';
import { trimTrailing } from '../core/linear-text.js';
import { projectId } from '../engine/commit-comment.js';
import { projectDirectory, readGitBase } from './steps/git-base.js';
import type { KeySourceReference } from '../engine/key-rotation.js';
import { markKeyRotations } from '../engine/key-rotation.js';
import { kindOfDocument } from '../kinds/index.js';
import { withoutCredentials } from '../core/secrets.js';
import type { Diagnosed } from '../core/diagnostics.js';
import type { Planned, Prepared, RunInput } from './steps/pipeline.js';
import { connectionFor, preparedForGateway, prepare, readAndPlan, reloadFor } from './steps/pipeline.js';

/** Result of {@link runDriftReport}. */
export interface DriftRun extends Planned {
  readonly prepared: Prepared;
  readonly report: DriftReport;
  /** With `adoptAdded`: the manifest documents of the objects added on the gateway, and their secret variables. */
  readonly added?: { readonly documents: readonly AddedDocument[]; readonly variables: readonly string[] };
}

/**
 * The first stage of `gwops drift`, before any gateway is contacted: the manifests
 * {@link prepare}d, where no manifest at all is allowed (drift reads and never changes:
 * an empty desired state is reported as drift, not refused).
 * @throws ManifestError
 */
export function prepareDrift(input: RunInput): Promise<Diagnosed<Prepared>> {
  return prepare({ ...input, allowEmpty: true });
}

/** The attributes whose declared keys the manifests read `{ fromJwks }`, with their source (a `jwks` name, or the URL without credentials). */
function keySourceReferences(prepared: Prepared): KeySourceReference[] {
  return prepared.loaded.jwksReferences.map((r) => ({
    kind: kindOfDocument(r.document.kind).type,
    name: r.document.name,
    path: r.segments.join('.'),
    source: r.ref.source ?? withoutCredentials(r.ref.url ?? ''),
  }));
}

/**
 * Reads the gateway in one session (load-active, the GET lists, the configurations list),
 * builds the plan without `--prune` and the report; nothing is changed or activated.
 * @param now the clock that decides which ignore entries have expired
 * @param options `adoptAdded`: also read the objects added on the gateway whole and build their manifest documents (drift --adopt)
 * @throws ManifestError for invalid manifests; the gateway's errors (src/gateway/errors.ts)
 */
export async function runDriftReport(input: RunInput, loaded: Prepared, now: Date, options: { readonly adoptAdded?: boolean } = {}): Promise<DriftRun> {
  const connection = connectionFor(input, loaded);
  const { active, expired } = entriesInForce(loaded.loaded.project.drift, now);
  return withSession({ ...connection, onWarning: input.warn }, async (session) => {
    const prepared = await preparedForGateway(session, loaded, connection.declaredVariant, {}, reloadFor({ ...input, allowEmpty: true }));
    const planned = await readAndPlan(session, prepared, { ...input, prune: false, nameLinkEnds: true });
    const list = await session.configurations();
    const attribution = attributeDrift(list);
    // The third side: what this project last applied, read back from Git (drift-base.ts).
    const lookup = findDriftBase(list, projectId(prepared.loaded.project.ownership));
    const fromGit = 'found' in lookup ? await readGitBase(input, lookup.found.sha, prepared.variant, projectDirectory(prepared, input)) : lookup;
    const base = 'desired' in fromGit && 'found' in lookup ? { ref: lookup.found, desired: fromGit.desired } : { unavailable: 'unavailable' in fromGit ? fromGit.unavailable : '' };
    // A key the gateway holds that its key source still publishes, while the source selects another: a rotation there (key-rotation.ts).
    const built = buildDriftReport({ ...planned, desired: prepared.desired, attribution, ignore: active, expiredIgnores: expired, base, publicKeys: NODE_PUBLIC_KEYS });
    const report = markKeyRotations(built, keySourceReferences(prepared), planned.live, prepared.keyNames, NODE_PUBLIC_KEYS);
    const added = report.entries.filter((e) => e.direction === 'added');
    if (!options.adoptAdded || added.length === 0) return { ...planned, prepared, report };
    return { ...planned, prepared, report, added: await addedObjectDocuments(session, added, planned.live, prepared.variant) };
  });
}

/** What `drift --adopt` is given beyond the drift run. */
export interface DriftAdoptInput {
  /** The manifest paths the run read (empty: the project file's). */
  readonly paths: readonly string[];
  readonly cwd: string;
  /** `--adopt-deletions`: remove the declarations of objects deleted on the gateway. */
  readonly adoptDeletions: boolean;
  /** `--target` and `--url` as given: they name the target whose overlays the edits go to. */
  readonly target?: string | undefined;
  readonly url?: string | undefined;
}

/** What `drift --adopt` did: the files written, and the differences kept out (changes in Git not applied yet, conflicts). */
export interface AdoptRun {
  readonly result: AdoptResult;
  readonly kept: readonly DriftEntry[];
}

/**
 * The target the run is for: `target`, else the project's only target when no `url` is
 * given (as the connection is resolved), else the target whose URL `url` names.
 */
function currentTarget(targets: Readonly<Record<string, { readonly url: string }>>, input: DriftAdoptInput): string | undefined {
  if (input.target !== undefined) return input.target;
  const names = Object.keys(targets);
  const trimmed = (url: string): string => trimTrailing(url, '/');
  if (input.url === undefined) return names.length === 1 ? names[0] : undefined;
  const url = trimmed(input.url);
  return names.find((name) => trimmed(targets[name]?.url ?? '') === url);
}

/**
 * `gwops drift --adopt` after {@link runDriftReport} (run with `adoptAdded`): brings the
 * manifests in line with the gateway's changes (src/adopt/). Only the gateway's changes
 * are adopted: a change in Git not applied yet, or a conflict, is never written over
 * (drift-base.ts `adoptableReport`).
 * @returns undefined when there was nothing to adopt and nothing kept out
 * @throws ConfigError when a file cannot be written
 */
export async function adoptDriftRun(run: DriftRun, input: DriftAdoptInput): Promise<AdoptRun | undefined> {
  const { report: adoptable, kept } = adoptableReport(run.report);
  if (!adoptable.drifted) return kept.length > 0 ? { result: { edited: [], created: [], removed: [], skipped: [], secretVariables: [] }, kept } : undefined;
  const loaded = run.prepared.loaded;
  const result = await adoptDrift(
    {
      report: adoptable,
      desired: run.prepared.desired,
      live: run.live,
      cwd: input.cwd,
      adoptDeletions: input.adoptDeletions,
      publicKeys: NODE_PUBLIC_KEYS,
      origins: (kind, name) => loaded.origins(kind, name),
      targets: loaded.project.targets,
      current: currentTarget(loaded.project.targets, input),
    },
    input.paths.length > 0 ? input.paths : loaded.project.manifests,
    (run.added?.documents ?? []).filter((d) => adoptable.entries.some((e) => e.direction === 'added' && e.kind === d.kind && e.name === d.name)),
    run.added?.variables ?? [],
  );
  return { result, kept };
}
