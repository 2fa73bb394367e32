/**
 * A plan file (`plan --out`; src/operations/steps/saved-plan.ts) as text. Pure.
 */
import type { PlanFile } from '../engine/plan-file.js';
import { PLAN_FORMAT_VERSION } from '../engine/plan-types.js';
import { jsonDocument } from '../json-document.js';
import { jsonDocumentChunks } from './json-chunks.js';
import { planJson, planMembers } from './json.js';

/**
 * A plan file as text (src/json-document.ts): the plan as `renderJson` writes it (stable key order), then
 * `gateway`, `ownership`, `options`, `commit` and `desired`. Two-space indentation, trailing newline.
 */
export function renderPlanFile(file: PlanFile): string {
  const { gateway, ownership, options, commit, desired, ...plan } = file;
  return jsonDocument(PLAN_FORMAT_VERSION, { ...planJson(plan), gateway, ownership, options, commit, desired });
}

/**
 * {@link renderPlanFile} in chunks of at most `CHUNK_SIZE` characters
 * (src/render/json-chunks.ts), one step, call or desired object never split: joined, exactly
 * its text. `plan --out` writes these, so the file never exists whole in memory.
 */
export function renderPlanFileChunks(file: PlanFile): Generator<string> {
  const { gateway, ownership, options, commit, desired, ...plan } = file;
  return jsonDocumentChunks(PLAN_FORMAT_VERSION, { ...planMembers(plan), gateway, ownership, options, commit, desired });
}
