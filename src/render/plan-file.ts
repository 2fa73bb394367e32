/**
 * A plan file (`plan --out`; src/operations/steps/saved-plan.ts) as text. Pure.
 *
 * Laid out in lines (src/render/json-chunks.ts `JsonLayout`): the members indented, each
 * step, call, unmanaged object, desired object, link and declared relationship on one line
 * without spaces. The same JSON value as indented text (what `plan --format json` writes),
 * about 40 % smaller, and a diff of two plan files still shows which steps differ.
 */
import type { PlanFile } from '../engine/plan-file.js';
import { PLAN_FORMAT_VERSION } from '../engine/plan-types.js';
import { jsonDocumentChunks } from './json-chunks.js';
import { planMembers } from './json.js';

/**
 * A plan file in chunks of at most `CHUNK_SIZE` characters (src/render/json-chunks.ts),
 * one step, call or desired object never split: the plan as `renderJson` writes it (stable
 * key order, without `diagnostics`), then `gateway`, `ownership`, `options`, `commit` and
 * `desired`, laid out in lines (see the module comment), with a trailing newline. `plan
 * --out` writes these, so the file never exists whole in memory.
 */
export function renderPlanFileChunks(file: PlanFile): Generator<string> {
  const { gateway, ownership, options, commit, desired, ...plan } = file;
  return jsonDocumentChunks(PLAN_FORMAT_VERSION, { ...planMembers(plan), gateway, ownership, options, commit, desired }, 'lines');
}

/** A plan file as one string: {@link renderPlanFileChunks} joined. */
export function renderPlanFile(file: PlanFile): string {
  return [...renderPlanFileChunks(file)].join('');
}
