/**
 * The scale part of `npm run bench:emulator` (tools/bench/emulator.ts): the emulator in a
 * child process (tools/bench/emulator-child.ts) on a state file, grown to 1,000 / 10,000
 * (and, with `--scale-100k`, 100,000) mappings through its HTTP API, each mapping created
 * with its links to a back-end group and a virtual host in the create call. At each size:
 *
 * - the emulator's CPU time and handling time per create (from its process and its request
 *   log), over the last creates before the size is reached, sent one at a time, so the
 *   figure is the cost of a create at that size, not an average since zero nor time spent
 *   waiting for other requests; CPU time is the one other processes on a shared machine do
 *   not inflate; and the client's wall time per create;
 * - the wall time of the unfiltered list (body read, not parsed) and of a list filtered by
 *   name;
 * - the wall time of an activation (validator run plus the state file written);
 * - the emulator's CPU time per delete of a linked mapping (its virtual host's and back-end
 *   group's lists of all the others edited), over a few deletes after a first untimed one
 *   (which copies those lists from the activated configuration: copy-on-write);
 * - the emulator's peak RSS so far (the child's own high-water mark, tools/bench/peak-memory.ts).
 *
 * At the largest size, the configuration is exported (`GET .../configurations/export`) and
 * the archive imported again into the session (`PUT .../configurations/import`): their
 * times, the archive's size, and a filtered list after the import.
 *
 * Then the emulator is restarted on the state file: the time until it listens, a filtered
 * list, and its peak RSS.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BareSession, BenchEmulator } from './apply-emulator.js';
import { childEmulator, openBareSession } from './apply-emulator.js';

/** Requests in flight while creating mappings, and pool connections carrying them. */
const IN_FLIGHT = 8;
const CONNECTIONS = 4;
/** The creates whose handling time is reported at each size: the last ones before it. */
const TAIL = 1000;

/** The figures at one size. */
export interface ScaleRow {
  readonly mappings: number;
  /**
   * The emulator's CPU time per create over the last creates before this size, ms: what a
   * create costs it, whatever else runs on the machine (the target's measure).
   */
  readonly createMs: number;
  /** The emulator's handling time (request in to answer out) per create over the same creates, ms. */
  readonly createHandlingMs: number;
  /** The client's wall time per create over the same creates (sent one at a time), ms. */
  readonly createWallMs: number;
  /** Wall time of `GET /configuration/mappings` (no filter), its body read, ms. */
  readonly listMs: number;
  /** Bytes of that list. */
  readonly listBytes: number;
  /** Wall time of `GET /configuration/mappings?filter=name==…`, ms. */
  readonly filteredListMs: number;
  /** Wall time of `POST /configuration/configurations/activate` (state file written), ms. */
  readonly activateMs: number;
  /** The emulator's CPU time per `DELETE` of a linked mapping, ms. */
  readonly deleteMs: number;
  /** The emulator's peak resident set size so far, bytes. */
  readonly peakRssBytes: number;
}

/** The restart of the emulator on the state file of the largest size. */
export interface ScaleRestart {
  readonly mappings: number;
  /** From fork to listening (the state file read), ms. */
  readonly startMs: number;
  /** Wall time of a filtered list after load-active, ms. */
  readonly filteredListMs: number;
  readonly peakRssBytes: number;
}

/** The export and re-import of the configuration at the largest size. */
export interface ScaleTransfer {
  readonly mappings: number;
  /** Wall time of `GET /configuration/configurations/export`, the archive received, ms. */
  readonly exportMs: number;
  /** Bytes of the archive. */
  readonly archiveBytes: number;
  /** Wall time of `PUT /configuration/configurations/import` of that archive, ms. */
  readonly importMs: number;
  /** Wall time of a filtered list after the import, ms. */
  readonly filteredListMs: number;
  /** The emulator's peak RSS after both, bytes. */
  readonly peakRssBytes: number;
}

export interface ScaleReport {
  readonly rows: readonly ScaleRow[];
  readonly transfer: ScaleTransfer | null;
  readonly restart: ScaleRestart | null;
}

/** Name of the i-th mapping of the scale run. */
export function scaleMappingName(i: number): string {
  return `scale-m${String(i).padStart(6, '0')}`;
}

function mappingBody(i: number, groupId: string, hostId: string): unknown {
  return {
    data: {
      type: 'mapping',
      attributes: {
        name: scaleMappingName(i),
        labels: ['bench', `team-${i % 7}`],
        entryPath: { value: `/app-${i}/`, priority: i % 999 },
        backendPath: `/service-${i}/`,
      },
      relationships: {
        'back-end-groups': { data: [{ type: 'back-end-group', id: groupId }] },
        'virtual-hosts': { data: [{ type: 'virtual-host', id: hostId }] },
      },
    },
  };
}

/** Creates mappings `from` .. `to - 1`, `inFlight` at a time; returns the wall time in ms. */
async function createMappings(session: BareSession, from: number, to: number, groupId: string, hostId: string, inFlight: number): Promise<number> {
  const start = performance.now();
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const i = next++;
      await session.call('POST', '/configuration/mappings', mappingBody(i, groupId, hostId));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return performance.now() - start;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/** Counts the objects of a (small) list answer. */
async function listCount(session: BareSession, query: string): Promise<number> {
  const text = await session.text('GET', `/configuration/mappings?${query}`);
  const doc = JSON.parse(text) as { data?: unknown };
  return Array.isArray(doc.data) ? doc.data.length : -1;
}

async function filteredList(session: BareSession, i: number): Promise<number> {
  const query = `filter=${encodeURIComponent(`name==${scaleMappingName(i)}`)}`;
  let count = 0;
  const ms = await timed(async () => (count = await listCount(session, query)));
  if (count !== 1) throw new Error(`filter name==${scaleMappingName(i)} returned ${count} mappings, expected 1`);
  return ms;
}

/** Deletes timed after the first, untimed one. */
const DELETES = 10;

/** The id of the mapping of the scale run named for `i`. */
async function mappingId(session: BareSession, i: number): Promise<string> {
  const text = await session.text('GET', `/configuration/mappings?filter=${encodeURIComponent(`name==${scaleMappingName(i)}`)}`);
  const id = (JSON.parse(text) as { data?: { id?: string }[] }).data?.[0]?.id;
  if (id === undefined) throw new Error(`no mapping ${scaleMappingName(i)}`);
  return id;
}

/** Deletes the mappings `from` .. `from + DELETES`; the emulator's CPU time per delete after the first, ms. */
async function deleteCpuMs(session: BareSession, emulator: BenchEmulator, from: number): Promise<number> {
  const ids: string[] = [];
  for (let i = from; i <= from + DELETES; i++) ids.push(await mappingId(session, i));
  const [first, ...rest] = ids;
  await session.bytes('DELETE', `/configuration/mappings/${first ?? ''}`);
  const before = await emulator.counters();
  for (const id of rest) await session.bytes('DELETE', `/configuration/mappings/${id}`);
  const after = await emulator.counters();
  return (after.cpuMs - before.cpuMs) / rest.length;
}

/**
 * Runs the scale measurement at `sizes` (ascending), one emulator child growing through
 * them, then its restart on the state file.
 * @throws Error when a call fails or a list answers the wrong count
 */
export async function runScaleBench(sizes: readonly number[], progress: (line: string) => void): Promise<ScaleReport> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gwops-emulator-scale-'));
  const stateFile = path.join(dir, 'state.json');
  const rows: ScaleRow[] = [];
  let emulator: BenchEmulator | undefined = await childEmulator({ latencyMs: 0, stateFile });
  let restart: ScaleRestart | null = null;
  let transfer: ScaleTransfer | null = null;
  try {
    const session = await openBareSession(emulator, CONNECTIONS);
    const groupId = await session.call('POST', '/configuration/back-end-groups', {
      data: { type: 'back-end-group', attributes: { name: 'scale-bg', backendHosts: [{ protocol: 'HTTP', hostName: 'app.scale.internal', port: 8080 }] } },
    });
    const hostId = await session.call('POST', '/configuration/virtual-hosts', {
      data: { type: 'virtual-host', attributes: { name: 'scale-vh', hostName: 'scale.example.com', networkInterface: { https: { enabled: false, http2Allowed: false } } } },
    });
    let created = 0;
    for (const size of [...sizes].sort((a, b) => a - b)) {
      progress(`scale: creating mappings ${created + 1}..${size}`);
      const tailFrom = Math.max(created, size - TAIL);
      await createMappings(session, created, tailFrom, groupId, hostId, IN_FLIGHT);
      // One at a time: a request's handling time then holds no other request's.
      const before = await emulator.counters();
      const tailWall = await createMappings(session, tailFrom, size, groupId, hostId, 1);
      const after = await emulator.counters();
      const creates = size - tailFrom;
      created = size;
      progress(`scale: list, filtered list and activation at ${size}`);
      let listBytes = 0;
      const listMs = await timed(async () => (listBytes = await session.drain('/configuration/mappings')));
      const filteredListMs = await filteredList(session, size - 1);
      const activateMs = await timed(() => session.call('POST', '/configuration/configurations/activate', { comment: `scale ${size}` }));
      const deleteMs = await deleteCpuMs(session, emulator, tailFrom);
      rows.push({
        mappings: size,
        createMs: creates > 0 ? (after.cpuMs - before.cpuMs) / creates : 0,
        createHandlingMs: creates > 0 ? (after.processingMs - before.processingMs) / creates : 0,
        createWallMs: creates > 0 ? tailWall / creates : 0,
        listMs,
        listBytes,
        filteredListMs,
        activateMs,
        deleteMs,
        peakRssBytes: await emulator.peakRssBytes(),
      });
    }
    if (created > 0) {
      progress(`scale: export and import of the configuration of ${created} mappings`);
      let archive: Buffer = Buffer.alloc(0);
      const exportMs = await timed(async () => (archive = await session.bytes('GET', '/configuration/configurations/export')));
      const importMs = await timed(() => session.bytes('PUT', '/configuration/configurations/import', archive));
      const filteredListMs = await filteredList(session, created - 1);
      transfer = { mappings: created, exportMs, archiveBytes: archive.length, importMs, filteredListMs, peakRssBytes: await emulator.peakRssBytes() };
    }
    await session.close();
    await emulator.close();
    emulator = undefined;
    if (created > 0) {
      progress(`scale: restarting the emulator on the state file of ${created} mappings`);
      const t0 = performance.now();
      emulator = await childEmulator({ latencyMs: 0, stateFile });
      const startMs = performance.now() - t0;
      const again = await openBareSession(emulator, 1);
      const filteredListMs = await filteredList(again, created - 1);
      await again.close();
      restart = { mappings: created, startMs, filteredListMs, peakRssBytes: await emulator.peakRssBytes() };
    }
  } finally {
    await emulator?.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { rows, transfer, restart };
}
