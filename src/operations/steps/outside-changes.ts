/**
 * The changes made on the gateway since this project's last apply that a plan is about to
 * revert, with who and when (Terraform's "Objects have changed outside of Terraform";
 * README.md "Drift", "Three sides"): the plan's differences classified against the base
 * (drift-base.ts, read from Git by git-base.ts), keeping the gateway's and the conflicts.
 */
import { NODE_PUBLIC_KEYS } from '../../jwks/node-keys.js';
import type { GatewaySession } from '../../gateway/index.js';
import { projectId } from '../../engine/commit-comment.js';
import type { DriftAttribution } from '../../engine/drift-attribution.js';
import { attributeDrift } from '../../engine/drift-attribution.js';
import type { DriftBaseRef } from '../../engine/drift-base.js';
import { classifyDrift, findDriftBase } from '../../engine/drift-base.js';
import type { DriftEntry } from '../../engine/drift-report.js';
import { driftEntries } from '../../engine/drift-report.js';
import type { Planned, Prepared, RunInput } from './pipeline.js';
import { gitTopLevel, projectDirectory, readGitBase } from './git-base.js';

/** What a plan reverts of the gateway's own changes. */
export interface OutsideChanges {
  readonly base: DriftBaseRef;
  /** The differences changed on the gateway (`side` `gateway`) or on both sides (`both`) since the base. */
  readonly entries: readonly DriftEntry[];
  readonly attribution: DriftAttribution;
}

/**
 * Reads the configurations list and the base, and classifies the plan's differences.
 * @returns undefined when the plan changes nothing, when there is no base (drift says why),
 *   or when it reverts no change made on the gateway
 */
export async function outsideChanges(session: Pick<GatewaySession, 'configurations'>, prepared: Prepared, planned: Planned, input: RunInput): Promise<OutsideChanges | undefined> {
  if (planned.plan.steps.length === 0) return undefined;
  // Without a Git repository there is no base: the gateway is not asked for its history.
  const projectDir = projectDirectory(prepared, input);
  if ((await gitTopLevel(projectDir)) === undefined) return undefined;
  const list = await session.configurations();
  const lookup = findDriftBase(list, projectId(prepared.loaded.project.ownership));
  if (!('found' in lookup)) return undefined;
  const base = await readGitBase(input, lookup.found.sha, prepared.variant, projectDir);
  if (!('desired' in base)) return undefined;
  const desired = planned.desired ?? prepared.desired;
  const entries = classifyDrift(driftEntries(planned.plan, planned.live), base.desired, desired, planned.live, NODE_PUBLIC_KEYS).filter((e) => e.side === 'gateway' || e.side === 'both');
  return entries.length === 0 ? undefined : { base: lookup.found, entries, attribution: attributeDrift(list) };
}
