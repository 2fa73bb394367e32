/** Loads the golden cases of `test/reconcile/cases/<name>/` and builds their plans. */
import { readFileSync, readdirSync } from 'node:fs';
import type { ResourceType } from '../../src/kinds/index.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import { certificateHandles, desiredState } from '../../src/reconcile/desired.js';
import { liveState } from '../../src/reconcile/live.js';
import type { ApiResource } from '../../src/reconcile/live.js';
import type { State } from '../../src/reconcile/model.js';
import { buildPlan } from '../../src/reconcile/plan.js';
import type { Plan } from '../../src/reconcile/plan-types.js';
import type { ValidatorMessageView } from '../../src/render/index.js';

export const CASES_DIR = new URL('../reconcile/cases/', import.meta.url);

/** What `options.json` of a case may say. */
interface CaseOptions {
  prune?: boolean;
  /** Live objects whose name starts with this are owned. */
  ownedNamePrefix?: string;
  allowMassDelete?: boolean;
  validatorMessages?: ValidatorMessageView[];
}

export interface GoldenCase {
  name: string;
  dir: URL;
  documents: ManifestDocument[];
  desired: State;
  live: State;
  plan: Plan;
  validatorMessages: ValidatorMessageView[];
}

const readJson = <T>(url: URL): T => JSON.parse(readFileSync(url, 'utf8')) as T;

export function caseNames(): string[] {
  return readdirSync(CASES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

export function loadCase(name: string): GoldenCase {
  const dir = new URL(`${name}/`, CASES_DIR);
  const documents = readJson<ManifestDocument[]>(new URL('desired.json', dir));
  const lists = readJson<Partial<Record<ResourceType, ApiResource[]>>>(new URL('live.json', dir));
  let options: CaseOptions = {};
  try {
    options = readJson<CaseOptions>(new URL('options.json', dir));
  } catch {
    options = {};
  }
  const desired = desiredState(documents);
  const live = liveState(lists, certificateHandles(desired));
  const prefix = options.ownedNamePrefix ?? '';
  const plan = buildPlan(desired, live, {
    prune: options.prune ?? false,
    isOwned: (o) => o.name.startsWith(prefix),
    allowMassDelete: options.allowMassDelete ?? false,
    massDeleteShare: 0.5,
  });
  return { name, dir, documents, desired, live, plan, validatorMessages: options.validatorMessages ?? [] };
}
