/**
 * Batched link calls end to end: the real CLI against the emulator, counted from its
 * `requestLog` (docs/architecture.md "Habits", a strict HTTP test harness). 200 new
 * mappings, each linked to one back-end group and one virtual host, take one create each
 * plus one call per link group, never one call per link (src/engine/batch.ts).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const COUNT = 200;

const PROJECT = `ownership:
  back-end-group: ['name=@bt-']
  mapping: ['name=@bt-']
  virtual-host: ['name=@bt-']
`;

const GROUP = `apiVersion: gwops/v1
kind: back-end-group
name: bt-pool
attributes:
  backendHosts:
    - { protocol: HTTP, hostName: bt.internal, port: 8080 }
`;

/** HTTP only, so that the validator asks for no certificate. */
const HOST = `apiVersion: gwops/v1
kind: virtual-host
name: bt-host
attributes:
  hostName: bt.example.com
  networkInterface:
    http: { enabled: true, port: 80 }
    https: { enabled: false, http2Allowed: false }
`;

const mappings = (count: number): string =>
  Array.from(
    { length: count },
    (_, i) => `apiVersion: gwops/v1
kind: mapping
name: bt-m${String(i).padStart(3, '0')}
attributes:
  entryPath: { value: /m${i}/ }
  backendPath: /
relationships:
  back-end-groups: [bt-pool]
  virtual-hosts: [bt-host]
`,
  ).join('---\n');

/**
 * The calls of every apply that changes something, besides its edits: session create,
 * the node status (the gateway's version, read once per run), load-active, one GET per kind the manifests name (back-end groups, mappings, virtual
 * hosts), validator messages, the configurations list before and after the activation,
 * the activation, and session terminate.
 */
const FIXED = 3 + 3 + 5;

describe('batched link calls against the emulator', () => {
  const t = useHarness();
  let project = '';

  beforeAll(async () => {
    project = join(await writeManifests(t.h, 'batching-project', { 'gwops.yaml': PROJECT }), 'gwops.yaml');
  });

  async function apply(step: string, manifests: Record<string, string>): Promise<string[]> {
    const folder = await writeManifests(t.h, `batching-${step}`, manifests);
    t.h.emulator.requestLog.length = 0;
    const r = await t.h.cli(['apply', '--yes', '--config', project, ...t.h.connection, '--comment', step, folder]);
    const log = [...t.h.emulator.requestLog];
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(log.filter((e) => e.status >= 400)).toEqual([]);
    return log.map((e) => `${e.method} ${e.path}`);
  }

  it('the back-end group and the virtual host exist first', async () => {
    const calls = await apply('base', { 'app.yaml': `${GROUP}---\n${HOST}` });
    expect(calls).toHaveLength(2 + FIXED);
  });

  let folder = '';
  it(`${COUNT} new mappings linked to both: ${COUNT} creates + 2 link calls + the fixed calls`, async () => {
    const calls = await apply('mappings', { 'app.yaml': `${GROUP}---\n${HOST}---\n${mappings(COUNT)}` });
    // One create per mapping, then one PATCH per link group: before batching 200 + 400 + 13 = 613.
    expect(calls).toHaveLength(COUNT + 2 + FIXED);
    expect(calls.filter((c) => c === 'POST /configuration/mappings')).toHaveLength(COUNT);
    const links = calls.filter((c) => c.includes('/relationships/'));
    expect(links).toHaveLength(2);
    expect(links[0]).toMatch(/^PATCH \/configuration\/back-end-groups\/\d+\/relationships\/mappings$/);
    expect(links[1]).toMatch(/^PATCH \/configuration\/virtual-hosts\/\d+\/relationships\/mappings$/);
    folder = join(t.h.dir, 'batching-mappings');
  });

  it('then the plan is empty and drift exits 0', async () => {
    const plan = await t.h.cli(['plan', '--config', project, ...t.h.connection, '--detailed-exitcode', folder]);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    const drift = await t.h.cli(['drift', '--config', project, ...t.h.connection, folder]);
    expect(drift.code).toBe(0);
  });

  it('everything new in one apply: the virtual host carries the 200 links in its create, one call for the rest', async () => {
    const renamed = (text: string): string => text.replaceAll('bt-', 'bt-x-');
    const calls = await apply('all-new', { 'app.yaml': renamed(`${GROUP}---\n${HOST}---\n${mappings(COUNT)}`) });
    expect(calls).toHaveLength(COUNT + 2 + 1 + FIXED);
    expect(calls.filter((c) => c.includes('/relationships/'))).toEqual([expect.stringMatching(/^PATCH \/configuration\/back-end-groups\/\d+\/relationships\/mappings$/)]);
  });
});
