/**
 * One rendering of the plan-JSON memory benchmark (tools/bench/plan-json.ts) in a process of
 * its own, so its peak RSS is its own. Reads its work from the environment (never argv):
 * GWOPS_BENCH_SIZE (mappings), GWOPS_BENCH_MODE and GWOPS_BENCH_OUT (the plan file).
 *
 * Both modes build the plan of GWOPS_BENCH_SIZE new mappings (the plan benchmark's desired
 * state against an empty gateway, every object a create), then write what `gwops plan
 * --format json --out FILE` writes: the plan document to stdout through the redacting IO of
 * the CLI (src/cli/io.ts) and the plan file to FILE.
 *
 * - `string`: as gwops wrote them before they were streamed: each document as one string,
 *   the plan file indented as the plan (`renderJson`, `jsonDocument`);
 * - `chunks`: as gwops writes them now: `renderJsonChunks` and `renderPlanFileChunks` (the
 *   plan file laid out in lines).
 *
 * Sends `{ maxRssKb, bytes }` (its peak RSS and the plan file's size) to the parent over IPC.
 */
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { redactingIO } from '#src/cli/io.js';
import type { CliIO } from '#src/cli/io.js';
import { desiredState } from '#src/engine/desired.js';
import { liveState } from '#src/engine/live.js';
import { buildPlan } from '#src/engine/plan.js';
import { planFileOf } from '#src/operations/steps/saved-plan.js';
import { PLAN_FORMAT_VERSION } from '#src/engine/plan-types.js';
import { jsonDocument } from '#src/core/json-document.js';
import { planJson, renderJson, renderJsonChunks, renderPlanFileChunks } from '#src/render/index.js';
import { desiredDocuments } from './plan.js';
import { peakResidentKib } from './peak-memory.js';

const size = Number(process.env.GWOPS_BENCH_SIZE ?? '0');
const out = process.env.GWOPS_BENCH_OUT ?? '';
const streamed = process.env.GWOPS_BENCH_MODE === 'chunks';

const desired = desiredState(desiredDocuments(size));
const plan = buildPlan(desired, liveState({}, new Map()), { prune: false, isOwned: () => true, allowMassDelete: false, massDeleteShare: 0.5 });
const file = planFileOf(plan, desired, { mapping: ['labels==bench'] }, { url: 'http://127.0.0.1:1/airlock/rest', variant: 'latest' }, new Map(), process.cwd());
// stdout as the CLI's: every write redacted and made safe to show, then written to the process's stdout (the parent's /dev/null, written synchronously).
const io = redactingIO({ stdout: process.stdout, stderr: process.stderr, env: {}, cwd: process.cwd(), isTTY: false, stdin: process.stdin } satisfies CliIO);
if (streamed) {
  for (const chunk of renderJsonChunks(plan, { diagnostics: [] })) io.stdout.write(chunk);
  await writeFile(out, renderPlanFileChunks(file));
} else {
  io.stdout.write(renderJson(plan, { diagnostics: [] }));
  const { gateway, ownership, options, commit, desired: saved } = file;
  await writeFile(out, jsonDocument(PLAN_FORMAT_VERSION, { ...planJson(plan), gateway, ownership, options, commit, desired: saved }));
}
process.send?.({ maxRssKb: peakResidentKib(), bytes: statSync(out).size }, () => process.exit(0));
