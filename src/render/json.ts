/**
 * The plan as JSON (Terraform `jsonplan`): the Plan data itself, `formatVersion` first,
 * keys in a stable order so that the same plan always gives the same bytes (golden files,
 * `--out plan.json` diffs). Secrets are already masked in the plan. The CLI's `--format
 * json` adds the run's diagnostics (`diagnostics`) after the plan's own members.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { diagnosticJson } from '../core/diagnostics-format.js';
import type { Plan } from '../engine/plan-types.js';
import type { ServerCheckOutcome } from './run-report.js';
import { PLAN_FORMAT_VERSION } from '../engine/plan-types.js';
import { jsonDocument } from '../core/json-document.js';
import { copyOfFirst, setOwnMember } from '../core/own-member.js';
import { jsonDocumentChunks, MappedArray } from './json-chunks.js';

/** Keys that come first, in this order, wherever they appear; other keys follow sorted. */
const KEY_ORDER = [
  'formatVersion',
  'liveDigest',
  'summary',
  'index',
  'action',
  'endpoint',
  'kind',
  'name',
  'method',
  'path',
  'id',
  'relationship',
  'related',
  'steps',
  'calls',
  'unmanaged',
  'relationships',
  'cause',
  'reason',
  'source',
  'changes',
  'unchangedCount',
  'secretPaths',
  'body',
  'create',
  'update',
  'delete',
  'link',
  'unlink',
  'before',
  'after',
  'sensitive',
  'data',
  'type',
  'attributes',
  'file',
  'line',
  'column',
];
const rank = new Map(KEY_ORDER.map((k, i) => [k, i]));

function compareKeys(a: string, b: string): number {
  const ra = rank.get(a);
  const rb = rank.get(b);
  if (ra !== undefined && rb !== undefined) return ra - rb;
  if (ra !== undefined) return -1;
  if (rb !== undefined) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when `keys` are in {@link compareKeys} order already. */
function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (compareKeys(keys[i - 1] as string, keys[i] as string) > 0) return false;
  return true;
}

/**
 * `value` with the keys of every object in {@link compareKeys} order. An object or array
 * already in that order all the way down is returned as it is, and one is copied only from
 * its first member that changes: the planner makes its steps and calls with their keys in
 * that order, and copying each of them (300,000 for 100,000 new mappings, for the JSON on
 * stdout and again for the plan file) was most of what writing them cost besides the text.
 */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const next = ordered(item);
      if (next !== item) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const sorted = inOrder(keys);
  if (!sorted) keys.sort(compareKeys);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const member = record[key];
    const next = ordered(member);
    // The members before this one, unchanged, in order.
    if (!out && (next !== member || !sorted)) out = copyOfFirst(record, keys, i);
    if (out) setOwnMember(out, key, next);
  }
  return out ?? record;
}

/** Options of {@link renderJson}. */
export interface JsonOptions {
  /**
   * The run's diagnostics (manifest warnings, the gateway validator's messages), added as
   * a last member `diagnostics`, each element in the shape of `gwops validate --format
   * json` (`diagnosticJson`, src/core/diagnostics.ts). Absent: no such member (plan
   * files, `--out`).
   */
  readonly diagnostics?: readonly Diagnostic[];
  /**
   * What came of `plan`'s server check (run-report.ts `ServerCheckOutcome`), added as a
   * member `serverCheck` before `diagnostics`. Absent: no such member.
   */
  readonly serverCheck?: ServerCheckOutcome;
}

/**
 * The plan as the members of its JSON document, in their stable key order (`formatVersion`
 * first), with `diagnostics` last when given: the value that {@link renderJson}, the apply
 * report and the plan file serialise, and the `changes` of the rollback preview.
 */
export function planJson(plan: Plan, options: JsonOptions = {}): Record<string, unknown> {
  const body = ordered(plan) as Record<string, unknown>;
  const check = options.serverCheck !== undefined ? { serverCheck: options.serverCheck } : {};
  return options.diagnostics ? { ...body, ...check, diagnostics: options.diagnostics.map(diagnosticJson) } : options.serverCheck !== undefined ? { ...body, ...check } : body;
}

/**
 * The plan's members as {@link planJson} orders them, its lists ({@link Plan.steps},
 * `calls`, `unmanaged`) as {@link MappedArray}s whose elements are ordered only as they are
 * written: the body of the streamed documents, which never hold a second copy of the plan.
 */
export function planMembers(plan: Plan, options: JsonOptions = {}): Record<string, unknown> {
  const record = plan as unknown as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort(compareKeys)) {
    const value = record[key];
    body[key] = Array.isArray(value) ? new MappedArray(value as readonly unknown[], ordered) : ordered(value);
  }
  if (options.serverCheck !== undefined) body.serverCheck = options.serverCheck;
  if (options.diagnostics) body.diagnostics = options.diagnostics.map(diagnosticJson);
  return body;
}

/**
 * {@link renderJson} in chunks of at most `CHUNK_SIZE` characters (src/render/json-chunks.ts),
 * one step or call never split: joined, exactly the text of `renderJson(plan, options)`.
 */
export function renderJsonChunks(plan: Plan, options: JsonOptions = {}): Generator<string> {
  return jsonDocumentChunks(PLAN_FORMAT_VERSION, planMembers(plan, options));
}

/**
 * Renders a plan as JSON (src/core/json-document.ts): 2-space indentation, stable key order,
 * trailing newline. Without `diagnostics`, `JSON.parse(renderJson(plan))` deep-equals `plan`.
 */
export function renderJson(plan: Plan, options: JsonOptions = {}): string {
  return jsonDocument(PLAN_FORMAT_VERSION, planJson(plan, options));
}

/**
 * The one JSON document of `apply --format json`: the plan's document with `diagnostics`
 * (the manifests' warnings, then the validator's messages), and `outcome` as the last
 * member: `result` (`activated`, `no-changes`, `cancelled` or `failed`) and, as they
 * apply, the activated `configuration` id, the `comment`, or the `error` message.
 */
export function renderApplyJson(plan: Plan, diagnostics: readonly Diagnostic[], outcome: Readonly<Record<string, string>>): string {
  return jsonDocument(PLAN_FORMAT_VERSION, { ...planJson(plan, { diagnostics }), outcome });
}

/** {@link renderApplyJson} in chunks (as {@link renderJsonChunks}): joined, exactly its text. */
export function renderApplyJsonChunks(plan: Plan, diagnostics: readonly Diagnostic[], outcome: Readonly<Record<string, string>>): Generator<string> {
  return jsonDocumentChunks(PLAN_FORMAT_VERSION, { ...planMembers(plan, { diagnostics }), outcome });
}
