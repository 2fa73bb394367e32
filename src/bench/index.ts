/**
 * `npm run bench`: the speed and memory targets of gwops, measured side by side in one run
 * (never as timed tests: the machines are shared and noisy).
 *
 * Parts: `validate` (1,000 and 10,000 mappings, target 10,000 under 2 s) and
 * `plan` (1,000 / 5,000 / 20,000 mappings against the emulator, plan time vs bare
 * fetch-and-parse, request count, peak memory). The emulator's own list latency is
 * `npm run bench:emulator`.
 *
 * Usage: `node dist/bench/index.js [validate] [plan] [--quick]` (`--quick`: small sizes).
 */
import { benchPlan } from './plan.js';
import { benchValidate, formatValidateBench } from './validate.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const parts = args.filter((a) => !a.startsWith('--'));
const want = (part: string): boolean => parts.length === 0 || parts.includes(part);
const progress = (line: string): void => void process.stderr.write(`${line}\n`);

if (want('validate')) {
  const results = await benchValidate(quick ? [200, 1000] : [1000, 10000], quick ? 1 : 3);
  process.stdout.write(`${formatValidateBench(results)}\n\n`);
}
if (want('plan')) {
  const lines = await benchPlan(quick ? [200, 1000] : [1000, 5000, 20000], progress);
  process.stdout.write(`${lines.join('\n')}\n`);
}
