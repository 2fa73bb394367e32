/**
 * A plan file (`plan --out`; src/operations/steps/saved-plan.ts) as text. Pure.
 */
import type { PlanFile } from '../engine/plan-file.js';
import { renderJson } from './json.js';

/**
 * A plan file as text: the plan as `renderJson` writes it (stable key order), then
 * `gateway`, `ownership`, `options`, `commit` and `desired`. Two-space indentation, trailing newline.
 */
export function renderPlanFile(file: PlanFile): string {
  const { gateway, ownership, options, commit, desired, ...plan } = file;
  const body = JSON.parse(renderJson(plan)) as Record<string, unknown>;
  return `${JSON.stringify({ ...body, gateway, ownership, options, commit, desired }, null, 2)}\n`;
}
