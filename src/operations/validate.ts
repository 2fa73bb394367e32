/**
 * The use case `validate`: loads and checks manifests offline (no gateway is contacted)
 * and returns every diagnostic and the `drift.ignore` entries that have expired. The
 * offline input is shared with `graph` (graph.ts).
 */
import type { Variant } from '../kinds/index.js';
import { hasErrors, loadManifests } from '../manifest/index.js';
import type { LoadOptions, LoadResult } from '../manifest/index.js';
import type { DriftIgnoreEntry } from '../manifest/drift-ignore.js';
import { entriesInForce } from '../manifest/drift-ignore.js';
import type { SecretRedactor } from '../core/secrets.js';

/** What an offline use case (validate, graph) is given: the manifests and the project options. */
export interface OfflineInput {
  /** Manifest files or directories, `-` for stdin; empty: the project file's manifests. */
  readonly paths: readonly string[];
  /** The directory relative paths resolve against. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin?: NodeJS.ReadableStream | undefined;
  /** The project file (default `gwops.yaml` in `cwd`). */
  readonly configFile?: string | undefined;
  /** A target of the project file: its variant and overlays apply. */
  readonly target?: string | undefined;
  readonly variant?: Variant | undefined;
  /** The run's secret registry: the manifests' secret values are registered into it. */
  readonly secrets?: SecretRedactor | undefined;
}

/** The loadManifests options of an offline use case. */
export function offlineLoadOptions(input: OfflineInput): LoadOptions {
  return {
    paths: input.paths,
    cwd: input.cwd,
    env: input.env,
    ...(input.stdin !== undefined ? { stdin: input.stdin } : {}),
    ...(input.configFile !== undefined ? { configFile: input.configFile } : {}),
    ...(input.target !== undefined ? { target: input.target } : {}),
    ...(input.variant !== undefined ? { variant: input.variant } : {}),
  };
}

/** What {@link runValidate} is given. */
export interface ValidateInput extends OfflineInput {
  /** False for `--skip-secrets`: `{ fromFile }` / `{ fromEnv }` secrets are checked in shape only, not read. */
  readonly resolveSecrets: boolean;
  /** False for `--allow-empty`: paths that hold no manifest document are accepted. */
  readonly requireDocuments: boolean;
  /** The clock that decides which `drift.ignore` entries have expired; default the system's. */
  readonly now?: (() => Date) | undefined;
}

/** What {@link runValidate} found. */
export interface ValidateResult {
  readonly loaded: LoadResult;
  /** True when no diagnostic is an error (warnings allowed). */
  readonly valid: boolean;
  /** The project file's `drift.ignore` entries past their `expires` date. */
  readonly expired: readonly DriftIgnoreEntry[];
}

/**
 * `gwops validate`: loads and checks the manifests; never contacts a gateway.
 * @throws InputError for unreadable paths or an invalid project file
 */
export async function runValidate(input: ValidateInput): Promise<ValidateResult> {
  const loaded = await loadManifests({
    ...offlineLoadOptions(input),
    resolveSecrets: input.resolveSecrets,
    requireDocuments: input.requireDocuments,
  });
  input.secrets?.addAll(loaded.secretValues);
  // The project file's schema and dates were checked on load.
  const expired = entriesInForce(loaded.project.drift, input.now?.() ?? new Date()).expired;
  return { loaded, valid: !hasErrors(loaded.diagnostics), expired };
}
