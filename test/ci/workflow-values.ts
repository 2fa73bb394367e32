/**
 * Reading the values of a parsed workflow or action file loosely (a missing member is an
 * empty object, list or string), and the expressions they hold: the helpers of
 * workflows.test.ts.
 */

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown): Obj => (isObj(v) ? v : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

export interface Step extends Obj {
  id?: string;
  uses?: string;
  run?: string;
  with?: Obj;
  env?: Obj;
}
export interface Job extends Obj {
  steps?: Step[];
  env?: Obj;
  needs?: string | string[];
  outputs?: Obj;
  environment?: unknown;
  strategy?: Obj;
  permissions?: unknown;
}
export const jobsOf = (workflow: Obj): [string, Job][] => Object.entries(obj(workflow.jobs)).map(([id, job]) => [id, obj(job) as Job]);
export const stepsOf = (job: Job): Step[] => list(job.steps).map((s) => obj(s) as Step);
export const needsOf = (job: Job): string[] => (typeof job.needs === 'string' ? [job.needs] : list(job.needs).map(str));

/** Every `${{ … }}` in a value, deep. */
export function expressions(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(/\$\{\{([\s\S]*?)\}\}/g)].map((m) => (m[1] ?? '').trim());
  if (Array.isArray(value)) return value.flatMap(expressions);
  if (isObj(value)) return Object.values(value).flatMap(expressions);
  return [];
}
/** `if:` values are expressions without the braces. */
export function conditionsAndExpressions(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(conditionsAndExpressions);
  if (!isObj(value)) return expressions(value);
  return Object.entries(value).flatMap(([key, v]) => (key === 'if' && typeof v === 'string' && !v.includes('${{') ? [v] : conditionsAndExpressions(v)));
}
