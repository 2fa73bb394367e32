/**
 * `npm run bench:emulator`, how the emulator's speed targets are checked: list latency of
 * the emulator for 1,000 / 10,000 / 20,000 mappings, each with and without a filter, and
 * the process memory after loading 20,000 full mappings, side by side with the targets
 * (filtered list of 20,000 under 250 ms; memory under 1 GB).
 *
 * The emulator runs in this process (`startEmulator`; plain HTTP by default so the figures
 * measure the emulator, not TLS; `--tls` for HTTPS as real clients use it). The mappings
 * are created through the real HTTP API with undici: one session, a keep-alive pool of a
 * few connections sharing its cookie, a small window of requests in flight.
 *
 * Then the scale part (tools/bench/emulator-scale.ts): the emulator in a child process grown
 * to 1,000 and 10,000 mappings (and 100,000 with `--scale-100k`), reporting the handling
 * time per create, list and activation times and the emulator's peak RSS at each size,
 * and at the largest the export and re-import of the configuration (targets: a create in
 * at most 0.5 ms, peak RSS under 1 GB at 100,000).
 *
 * Usage: `node dist-tools/bench/emulator.js [--json] [--tls] [--sizes 1000,10000,20000] [--runs 5]
 * [--scale-100k] [--scale-only] [--no-scale] [--write-docs]` (`--write-docs`: also writes
 * docs/performance-emulator.md, tools/bench/emulator-doc.ts).
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { checkAttributes } from '#src/emulator/attributes.js';
import { newObjectAttributes } from '#src/emulator/defaults.js';
import { matchesFilter, parseFilters } from '#src/api/filter.js';
import { startEmulator } from '#src/emulator/index.js';
import { emptyContent } from '#src/emulator/model.js';
import type { JsonObject } from '#src/emulator/model.js';
import { validatorMessages } from '#src/emulator/validator.js';
import { kindOf } from '#src/kinds/index.js';
import type { BenchReport, ListTiming, MemoryFigures, ModelTiming, SizeResult } from './emulator-report.js';
import { formatReport, median, slowestFilteredMs } from './emulator-report.js';
import { EXIT } from '#src/core/exit-codes.js';
import { runScaleBench } from './emulator-scale.js';
import { writeEmulatorDoc } from './emulator-doc.js';
import { machineInfo } from './report-doc.js';

/** The emulator's targets: a filtered list of 20,000 mappings under 250 ms, memory under 1 GB. */
const FILTERED_LIST_TARGET_MS = 250;
const MEMORY_TARGET_BYTES = 1024 ** 3;
/** The scale targets: a create handled in at most 0.5 ms at the largest size; peak RSS under {@link MEMORY_TARGET_BYTES}. */
const CREATE_TARGET_MS = 0.5;
/** The filtered list calls timed at every size. */
const FILTERS = ['name==mapping-00042', 'label==team-a'] as const;
/** Requests in flight while creating mappings, and pool connections carrying them. */
const IN_FLIGHT = 8;
const CONNECTIONS = 4;

export interface BenchOptions {
  readonly sizes: readonly number[];
  readonly runs: number;
  /** HTTPS with the emulator's self-signed certificate (trusted through its CA PEM) instead of plain HTTP. */
  readonly tls: boolean;
  /** Sizes of the scale part (tools/bench/emulator-scale.ts); empty to skip it. */
  readonly scaleSizes: readonly number[];
  /** Skip the in-process part (list latency, memory, model timing). */
  readonly scaleOnly?: boolean;
  /** Progress lines (to stderr in the CLI). */
  readonly progress: (line: string) => void;
}

/** Thrown when the emulator answers a bench call with an unexpected status. */
export class BenchHttpError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
  ) {
    super(`${method} ${path} answered ${status}`);
    this.name = 'BenchHttpError';
  }
}

/** Forces a full GC when possible (flag set at run time, function taken from a fresh context). */
function gcFunction(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? () => void (gc as () => unknown)() : undefined;
  } catch {
    return undefined;
  }
}

/** Name of the i-th mapping: `mapping-00042`. */
function mappingName(i: number): string {
  return `mapping-${String(i).padStart(5, '0')}`;
}

/** Every 100th mapping carries `team-a`, so `label==team-a` selects 1 %. */
function isTeamA(i: number): boolean {
  return i % 100 === 0;
}

/** A realistic mapping: a handful of set attributes over the server defaults. */
function mappingAttributes(i: number): JsonObject {
  return {
    name: mappingName(i),
    labels: [isTeamA(i) ? 'team-a' : `team-${String.fromCharCode(98 + (i % 5))}`, 'bench'],
    entryPath: { value: `/app-${i}/`, priority: i % 999, regexFormatEnforced: false },
    backendPath: `/service-${i}/`,
    threatHandling: i % 3 === 0 ? 'NOTIFY' : 'BLOCK',
    access: { authenticationFlow: 'DENY_ACCESS', restrictions: [{ enabled: true, authorizedRoles: [`role-${i % 17}`] }] },
    limits: { general: { maxRequestBodySize: 1_048_576 } },
    timeouts: { backend: 60 },
  };
}

/** A client of one emulator session over a keep-alive pool. */
class Session {
  private cookie = '';
  constructor(
    private readonly pool: Pool,
    private readonly basePath: string,
  ) {}

  async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.pool.request({
      method,
      path: this.basePath + path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  }

  async open(apiKey: string): Promise<void> {
    const res = await this.pool.request({
      method: 'POST',
      path: `${this.basePath}/session/create`,
      headers: { authorization: `Bearer ${apiKey}` },
    });
    await res.body.text();
    const setCookie = res.headers['set-cookie'];
    const raw = Array.isArray(setCookie) ? setCookie.join(';') : (setCookie ?? '');
    const match = /JSESSIONID=[^;]+/.exec(raw);
    if (res.statusCode !== 200 || !match) throw new BenchHttpError('POST', '/session/create', res.statusCode);
    this.cookie = match[0];
    await this.expect('POST', '/configuration/configurations/load-active', [200, 204]);
  }

  async expect(method: 'GET' | 'POST', path: string, statuses: readonly number[], body?: unknown): Promise<string> {
    const res = await this.call(method, path, body);
    if (!statuses.includes(res.status)) throw new BenchHttpError(method, path, res.status);
    return res.text;
  }
}

/** Creates mappings `from` .. `to - 1` with a window of requests in flight. */
async function createMappings(session: Session, from: number, to: number): Promise<void> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const i = next++;
      await session.expect('POST', '/configuration/mappings', [201], { data: { type: 'mapping', attributes: mappingAttributes(i) } });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

function countData(text: string): number {
  const doc = JSON.parse(text) as { data?: unknown };
  return Array.isArray(doc.data) ? doc.data.length : -1;
}

async function timeList(session: Session, filter: string | null, expected: number, runs: number): Promise<ListTiming> {
  const path = filter === null ? '/configuration/mappings' : `/configuration/mappings?filter=${encodeURIComponent(filter)}`;
  const matched = countData(await session.expect('GET', path, [200]));
  if (matched !== expected) throw new Error(`GET ${path} returned ${matched} mappings, expected ${expected}`);
  const runsMs: number[] = [];
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    await session.expect('GET', path, [200]);
    runsMs.push(performance.now() - start);
  }
  return { filter, matched, medianMs: median(runsMs), runsMs };
}

/**
 * Times the pure model parts in this process over `size` mappings built as the emulator
 * builds them (checked attributes over shared defaults), unlinked: the filter pass the
 * list route makes, and one validator run. Separates their cost from HTTP and JSON.
 */
export function modelTiming(size: number, runs: number): ModelTiming {
  const content = emptyContent();
  for (let i = 0; i < size; i++) {
    const check = checkAttributes('mapping', 'latest', mappingAttributes(i));
    if (!check.ok) throw new Error(`bench mapping ${i} is invalid: ${check.detail}`);
    const id = String(content.nextId++);
    content.objects.mapping.set(id, { type: 'mapping', id, attributes: newObjectAttributes('mapping', 'latest', check.value), relationships: {} });
  }
  const objects = [...content.objects.mapping.values()];
  // As the list route passes them: `label` reads the mapping's `labels`.
  const properties = kindOf('mapping').filterProperties;
  const filters = FILTERS.map((text) => {
    const filter = parseFilters([text]);
    const runsMs: number[] = [];
    let matched = 0;
    for (const o of objects) matchesFilter(filter, o, properties); // warm-up, untimed
    for (let r = 0; r < runs; r++) {
      const start = performance.now();
      matched = 0;
      for (const o of objects) if (matchesFilter(filter, o, properties)) matched++;
      runsMs.push(performance.now() - start);
    }
    return { filter: text, matched, medianMs: median(runsMs) };
  });
  const validatorRuns: number[] = [];
  let messages = validatorMessages(content, { variant: 'latest' }).length; // warm-up, untimed
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    messages = validatorMessages(content, { variant: 'latest' }).length;
    validatorRuns.push(performance.now() - start);
  }
  return { mappings: size, filters, validatorMs: median(validatorRuns), validatorMessages: messages };
}

/**
 * Runs the benchmark: starts an emulator in this process, creates the mappings size by
 * size through its HTTP API, times the list calls, and measures memory at the largest size.
 * @throws BenchHttpError when the emulator answers a call with an unexpected status.
 */
export async function runEmulatorBench(options: BenchOptions): Promise<BenchReport> {
  const gc = gcFunction();
  const sizes = options.scaleOnly === true ? [] : [...options.sizes].sort((a, b) => a - b);
  const largest = sizes[sizes.length - 1] ?? 0;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const emulator = await startEmulator({ port: 0, tls: options.tls, variant: 'latest' });
  const url = new URL(emulator.url);
  const ca = emulator.caCertificate;
  const pool = new Pool(url.origin, { connections: CONNECTIONS, pipelining: 1, ...(ca === undefined ? {} : { connect: { ca } }) });
  const results: SizeResult[] = [];
  let memory: MemoryFigures | null = null;
  let created = 0;
  let creationMs = 0;
  try {
    const session = new Session(pool, url.pathname.replace(/\/$/, ''));
    await session.open(emulator.apiKey);
    for (const size of sizes) {
      options.progress(`creating mappings ${created + 1}..${size}`);
      const start = performance.now();
      await createMappings(session, created, size);
      creationMs += performance.now() - start;
      created = size;
      emulator.requestLog.length = 0;
      if (size === largest) {
        gc?.();
        const usage = process.memoryUsage();
        memory = {
          mappings: size,
          gcForced: gc !== undefined,
          rssBytes: usage.rss,
          heapUsedBytes: usage.heapUsed,
          heapUsedBeforeLoadBytes: heapBefore,
          externalBytes: usage.external,
        };
      }
      options.progress(`timing lists of ${size} mappings`);
      const teamA = Array.from({ length: size }, (_, i) => i).filter(isTeamA).length;
      // The unfiltered list of many full mappings is large (about 9 kB each): fewer runs.
      const lists = [
        await timeList(session, null, size, size > 5000 ? Math.min(3, options.runs) : options.runs),
        await timeList(session, FILTERS[0], size > 42 ? 1 : 0, options.runs),
        await timeList(session, FILTERS[1], teamA, options.runs),
      ];
      results.push({ mappings: size, lists });
      gc?.();
    }
    await session.expect('POST', '/session/terminate', [200, 204]);
  } finally {
    await pool.close();
    await emulator.close();
  }
  const last = results[results.length - 1];
  const worstFiltered = last ? slowestFilteredMs(last) : null;
  options.progress(`timing the model parts over ${largest} mappings`);
  const model = largest > 0 ? modelTiming(largest, options.runs) : null;
  const scale = options.scaleSizes.length > 0 ? await runScaleBench(options.scaleSizes, options.progress) : null;
  const scaleLargest = scale?.rows[scale.rows.length - 1];
  return {
    formatVersion: 1,
    node: process.version,
    variant: 'latest',
    transport: options.tls ? 'https' : 'http',
    creation: { mappings: created, seconds: creationMs / 1000 },
    sizes: results,
    memory,
    model,
    scale,
    targets: {
      filteredListMs: FILTERED_LIST_TARGET_MS,
      memoryBytes: MEMORY_TARGET_BYTES,
      filteredListMet: worstFiltered === null || Number.isNaN(worstFiltered) ? null : worstFiltered < FILTERED_LIST_TARGET_MS,
      memoryMet: memory ? memory.rssBytes < MEMORY_TARGET_BYTES : null,
      createMs: CREATE_TARGET_MS,
      createMet: scaleLargest ? scaleLargest.createMs <= CREATE_TARGET_MS : null,
      scaleMemoryMet: scale ? Math.max(...scale.rows.map((r) => r.peakRssBytes), scale.transfer?.peakRssBytes ?? 0, scale.restart?.peakRssBytes ?? 0) < MEMORY_TARGET_BYTES : null,
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      sizes: { type: 'string', default: '1000,10000,20000' },
      runs: { type: 'string', default: '5' },
      tls: { type: 'boolean', default: false },
      'scale-100k': { type: 'boolean', default: false },
      'scale-only': { type: 'boolean', default: false },
      'no-scale': { type: 'boolean', default: false },
      'write-docs': { type: 'boolean', default: false },
    },
  });
  const startedAt = new Date().toISOString();
  const sizes = values.sizes.split(',').map((s) => Number(s.trim()));
  const runs = Number(values.runs);
  if (sizes.some((s) => !Number.isInteger(s) || s < 1) || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: node dist-tools/bench/emulator.js [--json] [--tls] [--sizes 1000,10000,20000] [--runs 5] [--scale-100k] [--scale-only] [--no-scale] [--write-docs]\n');
    process.exitCode = EXIT.error;
    return;
  }
  const scaleSizes = values['no-scale'] ? [] : values['scale-100k'] ? [1000, 10_000, 100_000] : [1000, 10_000];
  const report = await runEmulatorBench({
    sizes,
    runs,
    tls: values.tls,
    scaleSizes,
    scaleOnly: values['scale-only'],
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
  if (values['write-docs']) {
    const command = `npm run bench:emulator -- ${process.argv.slice(2).join(' ')}`;
    const file = await writeEmulatorDoc(report, startedAt, command, machineInfo(), fileURLToPath(new URL('../../docs/', import.meta.url)));
    process.stderr.write(`wrote ${file}\n`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
