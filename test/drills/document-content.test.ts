/**
 * Document content as a property (docs/manifest-reference.md "Document content"): for
 * content bytes of every class (arbitrary Unicode text, JSON, YAML, GraphQL, binary and
 * not UTF-8, empty, large-ish, CRLF line ends, a BOM), in a document of each kind with
 * content:
 *
 * - apply of `content: { fromFile }` leaves exactly the file's bytes on the gateway;
 * - the plan after it is empty;
 * - bytes put on the gateway by hand are drift, and export writes them beside the manifest
 *   so that a plan of the export shows no change.
 *
 * `npm test` runs a seeded sample; `npm run drills` (GWOPS_DRILLS=full) runs 200 cases. A
 * violation names the seed (repeat it with GWOPS_DRILLS_SEED=<seed>).
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { withSession } from '../../src/gateway/index.js';
import { KINDS } from '../../src/kinds/index.js';
import { runCli } from '../support/in-process-cli.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { showsCrash } from './support.js';

const FULL = drillMode() === 'full';
const RUNS = FULL ? 200 : 5;
const SEED = drillSeed(20261126);
const CONTENT_KINDS = KINDS.filter((k) => k.content === true);

const CHECKS = ['apply fails', 'bytes differ after apply', 'plan after apply changes', 'drift not reported', 'export fails', 'exported bytes differ', 'plan of export changes', 'crash'] as const;
type Check = (typeof CHECKS)[number];

/** Content bytes of every class, each with its class for the report. */
const contentArbitrary: fc.Arbitrary<{ readonly kind: string; readonly bytes: Uint8Array }> = fc.oneof(
  fc.constant({ kind: 'empty', bytes: new Uint8Array() }),
  fc.string({ unit: 'grapheme', maxLength: 200 }).map((s) => ({ kind: 'unicode text', bytes: Buffer.from(s) })),
  fc.json({ maxDepth: 3 }).map((s) => ({ kind: 'JSON', bytes: Buffer.from(s) })),
  fc
    .array(fc.tuple(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/), fc.string({ maxLength: 30 })), { maxLength: 12 })
    .map((pairs) => ({ kind: 'YAML, CRLF', bytes: Buffer.from(`openapi: 3.0.3\r\n${pairs.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\r\n')}\r\n`) })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ kind: 'binary', bytes })),
  fc.string({ maxLength: 40 }).map((s) => ({ kind: 'BOM, no final line break', bytes: Buffer.from(`\uFEFFtype Query { a: String }\n# ${s}`) })),
  fc.integer({ min: 20_000, max: 200_000 }).map((lines) => ({ kind: 'large-ish', bytes: Buffer.from(Array.from({ length: lines / 10 }, (_, i) => `line ${i}`).join('\n')) })),
);

describe('drill: document content', () => {
  let emulator: RunningEmulator;
  let dir: string;
  let connection: string[];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, tls: false, variant: 'latest' });
    dir = await mkdtemp(join(tmpdir(), 'gwops-content-drill-'));
    const keyFile = join(dir, 'api-key');
    await writeFile(keyFile, emulator.apiKey, { mode: 0o600 });
    connection = ['--url', emulator.url, '--api-key-file', keyFile];
  });
  afterAll(async () => {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  });

  const cli = (args: readonly string[], cwd: string) => runCli(args, { PATH: process.env.PATH, CI: 'true', NO_COLOR: '1' }, cwd);

  /** The live bytes of `name` of `collection`. */
  async function live(collection: string, name: string): Promise<Buffer> {
    return withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => {
      await s.loadActive();
      const doc = (await s.list(collection, [`name==${name}`]))[0];
      return doc ? s.readContent(collection, doc.id) : Buffer.from('(missing)');
    });
  }

  it('apply uploads the exact bytes, and export → plan shows no change, for content of every class', async () => {
    const counts = new Map<string, { cases: number } & Record<Check, number>>();
    let n = 0;
    let firstProblem: string | undefined;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CONTENT_KINDS), contentArbitrary, contentArbitrary, async (kind, declared, byHand) => {
        n += 1;
        const row = counts.get(declared.kind) ?? { cases: 0, ...(Object.fromEntries(CHECKS.map((c) => [c, 0])) as Record<Check, number>) };
        counts.set(declared.kind, row);
        row.cases += 1;
        const fail = (check: Check): void => void (row[check] += 1);
        const name = `drill-${n}`;
        const project = join(dir, `case-${n}`);
        await mkdir(project, { recursive: true });
        await writeFile(join(project, 'gwops.yaml'), `manifests: [doc.yaml]\nownership:\n  ${kind.type}: [name==${name}]\n`);
        await writeFile(join(project, 'doc.yaml'), `apiVersion: gwops/v1\nkind: ${kind.type}\nname: ${name}\ncontent:\n  fromFile: spec.bin\n`);
        await writeFile(join(project, 'spec.bin'), declared.bytes);
        const config = ['--config', join(project, 'gwops.yaml'), ...connection];

        const applied = await cli(['apply', ...config, '--yes'], project);
        if (showsCrash(applied)) fail('crash');
        if (applied.code !== 0) {
          firstProblem ??= applied.stderr;
          return fail('apply fails');
        }
        if (!(await live(kind.collection, name)).equals(Buffer.from(declared.bytes))) fail('bytes differ after apply');
        if ((await cli(['plan', ...config, '--detailed-exitcode'], project)).code !== 0) fail('plan after apply changes');

        // Bytes put on the gateway by hand: drift, then exported beside the manifest.
        await withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => {
          await s.loadActive();
          const doc = (await s.list(kind.collection, [`name==${name}`]))[0];
          await s.writeContent(kind.collection, doc?.id ?? '', Buffer.from(byHand.bytes));
          await s.activate(`drill ${n}: content by hand`);
        });
        const changed = !Buffer.from(byHand.bytes).equals(Buffer.from(declared.bytes));
        const drift = await cli(['drift', ...config], project);
        if (drift.code !== (changed ? 2 : 0)) fail('drift not reported');

        const out = join(project, 'export');
        const exported = await cli(['export', ...connection, '--out', out, '--kind', kind.type, '--filter', `name==${name}`], project);
        if (showsCrash(exported)) fail('crash');
        if (exported.code !== 0) return fail('export fails');
        const files = (await readdir(join(out, kind.type))).filter((f) => f.includes('.content.'));
        const file = files[0];
        if (files.length !== 1 || file === undefined || !(await readFile(join(out, kind.type, file))).equals(Buffer.from(byHand.bytes))) fail('exported bytes differ');
        const replanned = await cli(['plan', '--config', join(out, 'gwops.yaml'), ...connection, '--detailed-exitcode'], project);
        if (replanned.code !== 0) fail('plan of export changes');
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const rows = [...counts].map(([kind, row]) => [kind, row.cases, ...CHECKS.map((c) => row[c])]);
    const violations = recordDrill({
      id: 'document-content',
      title: 'Document content',
      description:
        'Documents of each kind with a content sub-resource, their content of every class (Unicode text, JSON, YAML with CRLF, binary, ' +
        'empty, a BOM, large-ish) declared with content: { fromFile }: apply must leave exactly those bytes on the gateway and plan ' +
        'nothing after; other bytes put on the gateway by hand must be drift, and their export must hold them byte for byte and plan nothing.',
      seed: SEED,
      columns: ['content', 'cases', ...CHECKS],
      rows,
      mustBeZero: [...CHECKS],
    });
    expect(violations, firstProblem).toEqual([]);
  }, 600_000);
});
