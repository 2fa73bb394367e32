/**
 * `gwops doctor` with the real CLI against the emulator over HTTPS: a gateway of each variant that fits
 * (every collection of the registry's kinds answers, its own description matches the
 * schemas: exit 0, in text, markdown and JSON), a read-only key (reported, still exit 0),
 * a description that differs from gwops's schemas (an attribute added, one removed, one
 * retyped: each reported as what it is, exit 1), and a gateway without a description.
 * Nothing is changed on the gateway: the active configuration stays as it was.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/emulator/api-docs.js';
import { VARIANT_VERSIONS } from '../../src/emulator/server.js';
import { KINDS, VARIANTS, kindExistsIn } from '../../src/kinds/index.js';
import type { KindDefinition } from '../../src/kinds/index.js';
import { wireSchema } from '../../src/schema/index.js';
import { useHarness } from './harness.js';

interface DoctorJson {
  formatVersion: string;
  version: string | null;
  variant: string;
  write: { allowed: boolean | null; evidence: string };
  description: { served: boolean; evidence: string | null };
  kinds: { kind: string; collection: string; answers: boolean; objects: number | null; described: boolean | null; differences: { kind: string; path: string; gateway: string[]; gwops: string[] }[] }[];
  problems: string[];
}

const LATEST_KINDS = KINDS.filter((k) => kindExistsIn(k, 'latest'));

/** The top-level attributes of a kind that are of one scalar type. */
function scalarAttributes(kind: KindDefinition): [string, string][] {
  const properties = wireSchema(kind.type, 'latest', { keepRanges: false }).properties ?? {};
  return Object.entries(properties).flatMap(([name, s]) => (typeof s.type === 'string' && ['string', 'boolean', 'integer'].includes(s.type) && s.enum === undefined ? [[name, s.type] as [string, string]] : []));
}

/** A kind of the registry with two scalar attributes to remove and to retype: the description is altered there. */
const ALTERED = LATEST_KINDS.find((k) => scalarAttributes(k).length >= 2);
if (!ALTERED) throw new Error('no kind in the registry has two scalar attributes');
const [[REMOVED], [RETYPED, RETYPED_FROM]] = scalarAttributes(ALTERED) as [[string, string], [string, string]];
const RETYPED_TO = RETYPED_FROM === 'boolean' ? 'string' : 'boolean';
const ADDED = 'doctorOnlyOnTheGateway';
/** An attribute name of the gateway's that tries to drive the terminal and to break out of markdown: inert in every format. */
const HOSTILE = 'x\u001b[8mhidden\u202e`|<b>';

/** The served description with the altered kind's attributes changed in every body that carries them. */
function altered(served: OpenApiDocument): unknown {
  const doc = structuredClone(served) as unknown as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: { data?: { properties?: Record<string, { enum?: string[]; properties?: Record<string, unknown> }> } } } }> } }>> };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      const data = op.requestBody?.content['application/json']?.schema.properties?.data?.properties;
      const attributes = data?.attributes?.properties;
      if (!attributes || !data.type?.enum?.includes(ALTERED?.type ?? '')) continue;
      delete attributes[REMOVED];
      attributes[RETYPED] = { type: RETYPED_TO };
      attributes[ADDED] = { type: 'string' };
      attributes[HOSTILE] = { type: 'boolean' };
    }
  }
  return doc;
}

describe.each(VARIANTS)('gwops doctor against a gateway that fits (the %s variant)', (variant) => {
  const t = useHarness({ variant });
  const kinds = KINDS.filter((k) => kindExistsIn(k, variant));

  it('reports the version, the variant, write access, every kind of the registry answering and matching: exit 0, nothing changed', async () => {
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const run = await t.h.cli(['doctor', '--format', 'json', ...t.h.connection]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(report).toMatchObject({ formatVersion: '1.0', version: VARIANT_VERSIONS[variant], variant, write: { allowed: true }, description: { served: true, evidence: null }, problems: [] });
    expect(report.kinds.map((k) => k.kind)).toEqual(kinds.map((k) => k.type));
    // Asked with a collection of objects: no object lives below a singleton's path.
    const collections = new Set(kinds.filter((k) => k.singleton === undefined).map((k) => k.collection));
    expect(collections.has(/^DELETE \/configuration\/(\S+)\/0 /.exec(report.write.evidence)?.[1] ?? '')).toBe(true);
    for (const check of report.kinds) expect(check, check.kind).toMatchObject({ answers: true, described: true, differences: [] });
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });
});

describe('gwops doctor in text and markdown, and with a read-only key', () => {
  const t = useHarness();

  it('shows the same report as text and as markdown', async () => {
    const text = await t.h.cli(['doctor', ...t.h.connection]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Version: +8\.6$/m);
    expect(text.stdout).toMatch(/^May write: +yes: /m);
    for (const kind of LATEST_KINDS) expect(text.stdout).toMatch(new RegExp(`^${kind.type} +${kind.collection} +yes, \\d+ objects? +matches$`, 'm'));
    expect(text.stdout).toContain('gwops fits this gateway.');
    const markdown = await t.h.cli(['doctor', '--format', 'markdown', ...t.h.connection]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('## gwops doctor');
    for (const kind of LATEST_KINDS) expect(markdown.stdout).toContain(`| ${kind.type} | \`${kind.collection}\` | yes`);
  });

  it('reports that a read-only key may not write, and still exits 0', async () => {
    const keyFile = join(t.h.dir, 'read-only-key');
    await writeFile(keyFile, t.h.emulator.readOnlyApiKey, { mode: 0o600 });
    const connection = t.h.connection.map((arg, i) => (t.h.connection[i - 1] === '--api-key-file' ? keyFile : arg));
    const run = await t.h.cli(['doctor', '--format', 'json', ...connection]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(report.write.allowed).toBe(false);
    expect(report.write.evidence).toMatch(/^DELETE \/configuration\/\S+\/0 answered 403 FORBIDDEN$/);
  });
});

describe(`gwops doctor against a description that differs (${ALTERED.type}: '${ADDED}' added, '${REMOVED}' removed, '${RETYPED}' ${RETYPED_FROM} → ${RETYPED_TO})`, () => {
  const t = useHarness({ apiDocs: altered });

  it('reports the added attribute as unmanaged, the removed one as unknown, the retyped one as a type difference: exit 1', async () => {
    const run = await t.h.cli(['doctor', '--format', 'json', ...t.h.connection]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as DoctorJson;
    const check = report.kinds.find((k) => k.kind === ALTERED.type);
    expect(check?.differences).toEqual(
      [
        { kind: 'unmanaged', path: ADDED, gateway: ['string'], gwops: [] },
        { kind: 'unmanaged', path: HOSTILE, gateway: ['boolean'], gwops: [] },
        { kind: 'unknown', path: REMOVED, gateway: [], gwops: [scalarAttributes(ALTERED).find(([n]) => n === REMOVED)?.[1]] },
        { kind: 'type', path: RETYPED, gateway: [RETYPED_TO], gwops: [RETYPED_FROM] },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
    for (const other of report.kinds.filter((k) => k.kind !== ALTERED.type)) expect(other.differences, other.kind).toEqual([]);
    expect(report.problems).toHaveLength(2);
    expect(report.problems.join('\n')).toContain(`'${REMOVED}'`);
    expect(report.problems.join('\n')).toContain(`'${RETYPED}'`);
    const text = await t.h.cli(['doctor', ...t.h.connection]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`^${ALTERED.type} +unmanaged +${ADDED} +string +the gateway has it, gwops does not manage it: it stays unmanaged$`, 'm'));
    expect(text.stdout).toContain('2 problems:');
    expect(text.stdout).toContain('x\\u001b[8mhidden\\u202e`|<b>');
    const markdown = await t.h.cli(['doctor', '--format', 'markdown', ...t.h.connection]);
    expect(markdown.code).toBe(1);
    expect(markdown.stdout).toContain('| ``x\\u001b[8mhidden\\u202e`\\|<b>`` |');
    for (const out of [run.stdout, text.stdout, markdown.stdout]) for (const raw of ['\u001b', '\u202e']) expect(out).not.toContain(raw);
  });
});

describe('gwops doctor against a gateway that serves no description', () => {
  const t = useHarness({ apiDocs: () => undefined });

  it('says so, compares nothing, and exits 0 when every collection answers', async () => {
    const run = await t.h.cli(['doctor', '--format', 'json', ...t.h.connection]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(report.description).toEqual({ served: false, evidence: expect.stringMatching(/^GET \/v3\/api-docs answered 404/) as unknown });
    for (const check of report.kinds) expect(check, check.kind).toMatchObject({ answers: true, described: null, differences: [] });
  });
});
