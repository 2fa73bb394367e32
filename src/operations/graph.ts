/**
 * The use case `graph`: the desired state of the manifests, offline (no gateway contacted,
 * no secret read), for the CLI to draw as the managed topology.
 */
import { hasErrors, loadManifests } from '../manifest/index.js';
import { desiredState } from '../engine/desired.js';
import { ManifestError } from '../engine/errors.js';
import type { State } from '../engine/model.js';
import type { OfflineInput } from './validate.js';
import { offlineLoadOptions } from './validate.js';

/**
 * Loads the manifests (secrets not read) and builds their desired state.
 * @throws ManifestError carrying the diagnostics when the manifests have errors,
 *   DesiredStateError for duplicate objects or impossible links, InputError for
 *   unreadable paths or an invalid project file (each a DiagnosticsError but the last)
 */
export async function runGraph(input: OfflineInput): Promise<State> {
  const loaded = await loadManifests({ ...offlineLoadOptions(input), resolveSecrets: false });
  input.secrets?.addAll(loaded.secretValues);
  if (hasErrors(loaded.diagnostics)) throw new ManifestError(loaded.diagnostics);
  return desiredState(loaded.documents);
}
