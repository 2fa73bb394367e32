/**
 * `drift` shows a changed list the way `plan` does: the plan's value diff, both sides cut to
 * what the manifests declare (src/engine/declared-view.ts). One port of a back-end group's
 * `backendHosts` changed through the raw API shows, in the text report and in the markdown
 * of the nightly issue, as a short diff of that port, without the members the gateway fills
 * in (`mode`, `spare`, `weight`); the JSON report keeps both lists whole. End to end: the
 * CLI against the emulator over HTTP.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const PROJECT = `ownership:
  back-end-group: ['name=@dd-']
`;

const MANIFESTS = `apiVersion: gwops/v1
kind: back-end-group
name: dd-web
attributes:
  backendHosts:
    - { protocol: HTTP, hostName: a.example.internal, port: 8080 }
    - { protocol: HTTP, hostName: b.example.internal, port: 8081 }
`;

const UNDECLARED = ['mode', 'spare', 'weight'];

describe('drift shows one changed port of a list as a short diff', () => {
  const t = useHarness();
  let run: (command: string, ...flags: string[]) => ReturnType<typeof t.h.cli>;

  beforeAll(async () => {
    const project = join(await writeManifests(t.h, 'dd-project', { 'gwops.yaml': PROJECT }), 'gwops.yaml');
    const manifests = await writeManifests(t.h, 'dd-manifests', { 'groups.yaml': MANIFESTS });
    run = (command, ...flags) => t.h.cli([command, '--config', project, ...t.h.connection, ...flags, manifests]);
    expect((await run('apply', '--yes')).code).toBe(0);
    await t.h.raw(async (s) => {
      const [group] = await s.list('back-end-groups', ['name==dd-web']);
      if (!group) throw new Error('dd-web was not applied');
      const hosts = structuredClone(group.attributes.backendHosts) as Record<string, unknown>[];
      expect(hosts.map((h) => Object.keys(h).sort())).toEqual([expect.arrayContaining(UNDECLARED), expect.arrayContaining(UNDECLARED)]);
      (hosts[1] as Record<string, unknown>).port = 9090;
      await s.update('back-end-groups', group.id, { type: 'back-end-group', attributes: { backendHosts: hosts } });
    }, 'a port changed by hand');
  });

  for (const format of ['text', 'markdown'] as const) {
    it(`${format}: the port as a - and a + line, nothing the manifests leave out`, async () => {
      const drift = await run('drift', '--format', format);
      expect(drift.code).toBe(2);
      expect(drift.stdout).toMatch(/^\s*- +"port": 8081,$/m);
      expect(drift.stdout).toMatch(/^\s*\+ +"port": 9090,$/m);
      expect(drift.stdout).toMatch(/- is the manifests' value, \+ the gateway's/);
      for (const member of UNDECLARED) expect(drift.stdout).not.toContain(`"${member}"`);
      // Short: the changed lines and a few lines of context, no line as long as a whole list.
      const lines = drift.stdout.split('\n');
      expect(lines.filter((l) => /^\s*[-+] /.test(l))).toHaveLength(2);
      expect(Math.max(...lines.filter((l) => l.includes('"')).map((l) => l.length))).toBeLessThan(100);
    });
  }

  it('json: both lists whole, as the gateway and the manifests (with their item defaults) hold them', async () => {
    const drift = await run('drift', '--format', 'json');
    expect(drift.code).toBe(2);
    const [entry] = (JSON.parse(drift.stdout) as { entries: { path: string; declared: Record<string, unknown>[]; live: Record<string, unknown>[] }[] }).entries;
    expect(entry?.path).toBe('backendHosts');
    expect(entry?.live[1]).toEqual(expect.objectContaining({ port: 9090, mode: 'ENABLED', spare: false, weight: 100 }));
    expect(entry?.declared[1]).toEqual(expect.objectContaining({ port: 8081, mode: 'ENABLED' }));
    expect(entry).not.toHaveProperty('shown');
  });
});
