/**
 * A plan file (`plan --out`; src/operations/steps/saved-plan.ts) as text. Pure.
 */
import type { PlanFile } from '../engine/plan-file.js';
import { PLAN_FORMAT_VERSION } from '../engine/plan-types.js';
import { jsonDocument } from '../json-document.js';
import { planJson } from './json.js';

/**
 * A plan file as text (src/json-document.ts): the plan as `renderJson` writes it (stable key order), then
 * `gateway`, `ownership`, `options`, `commit` and `desired`. Two-space indentation, trailing newline.
 */
export function renderPlanFile(file: PlanFile): string {
  const { gateway, ownership, options, commit, desired, ...plan } = file;
  return jsonDocument(PLAN_FORMAT_VERSION, { ...planJson(plan), gateway, ownership, options, commit, desired });
}
