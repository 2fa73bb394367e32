import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const SMALL = {
  'app.yaml': `apiVersion: gwops/v1
kind: back-end-group
name: small-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]
---
apiVersion: gwops/v1
kind: mapping
name: small-api
attributes:
  entryPath: { value: /api/, priority: 5 }
  backendPath: /
relationships:
  back-end-groups: [small-backend]
  virtual-hosts: [small-host]
---
apiVersion: gwops/v1
kind: mapping
name: small-web
attributes:
  entryPath: { value: /, priority: 6 }
relationships:
  back-end-groups: [small-backend]
  virtual-hosts: [small-host]
---
apiVersion: gwops/v1
kind: virtual-host
name: small-host
attributes:
  hostName: small.example.com
  networkInterface: { https: { enabled: false, http2Allowed: false }, http: { enabled: true, port: 80 } }
`,
};

describe('failures leave the active configuration untouched and no session open', () => {
  const t = useHarness();
  let manifests: string;
  beforeAll(async () => {
    manifests = await writeManifests(t.h, 'small', SMALL);
  });

  it('a manifest error stops before any request with exit 1', async () => {
    const broken = await writeManifests(t.h, 'local', {
      'app.yaml': SMALL['app.yaml'].replace('http2Allowed: false', 'http2Allowed: true'),
    });
    t.h.emulator.requestLog.length = 0;
    const r = await t.h.cli(['apply', '--yes', broken, ...t.h.connection]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/app\.yaml:\d+:\d+/);
    expect(r.stderr).toContain('HTTP/2');
    expect(t.h.emulator.requestLog).toEqual([]);
  });

  it('a validator ERROR stops activation with exit 3', async () => {
    const broken = await writeManifests(t.h, 'broken', {
      'app.yaml': SMALL['app.yaml'].replace(
        'entryPath: { value: /, priority: 6 }\nrelationships:\n  back-end-groups: [small-backend]\n',
        'entryPath: { value: /, priority: 6 }\nrelationships:\n',
      ),
    });
    const written = await readFile(join(broken, 'app.yaml'), 'utf8');
    expect(written).not.toContain('priority: 6 }\nrelationships:\n  back-end-groups');
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const r = await t.h.cli(['apply', '--yes', broken, ...t.h.connection]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('ERROR');
    expect(r.stderr).toMatch(/app\.yaml:\d+/);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
    expect(t.h.emulator.openSessionCount()).toBe(0);
  });

  it('a fault injected at each call of an apply activates nothing', async () => {
    t.h.emulator.requestLog.length = 0;
    const dry = await t.h.cli(['plan', manifests, ...t.h.connection, '--no-server-check']);
    expect(dry.code).toBe(0);
    // Count the calls of a full apply by planning with the server check (same calls minus activate).
    t.h.emulator.requestLog.length = 0;
    await t.h.cli(['plan', manifests, ...t.h.connection]);
    const calls = t.h.emulator.requestLog.filter((e) => e.path !== '/session/terminate').length + 1; // + activate
    expect(calls).toBeGreaterThan(8);
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    for (let nth = 1; nth <= calls; nth += 1) {
      t.h.emulator.faults.clear();
      t.h.emulator.faults.add({ path: /^(?!\/session\/terminate)/, status: 500, nth });
      const r = await t.h.cli(['apply', '--yes', manifests, ...t.h.connection, '--comment', `fault ${nth}`]);
      expect(r.code, `fault at call ${nth}: ${r.stderr}`).toBe(1);
      expect(JSON.stringify(t.h.emulator.activeSnapshot()), `fault at call ${nth}`).toBe(before);
      expect(t.h.emulator.openSessionCount(), `fault at call ${nth}`).toBe(0);
    }
    t.h.emulator.faults.clear();
    const ok = await t.h.cli(['apply', '--yes', manifests, ...t.h.connection]);
    expect(ok.code).toBe(0);
  });

  it('reports the steps applied before a failed one and those skipped after it', async () => {
    const fresh = await writeManifests(t.h, 'report', { 'app.yaml': SMALL['app.yaml'].replaceAll('small-', 'report-') });
    t.h.emulator.faults.clear();
    t.h.emulator.faults.add({ method: 'PATCH', path: '/configuration/mappings/*/relationships/*', status: 500, nth: 1 });
    const r = await t.h.cli(['apply', '--yes', fresh, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/applied +create back-end-group 'report-backend'/);
    expect(r.stderr).toMatch(/failed +link mapping 'report-(api|web)' back-end-groups .* 500 INJECTED_FAULT/);
    expect(r.stderr).toMatch(/skipped +link/);
    expect(r.stderr).toContain('nothing was activated');
    expect(t.h.emulator.openSessionCount()).toBe(0);
  });

  it('says the outcome is unknown when the connection breaks after activation was sent', async () => {
    const fresh = await writeManifests(t.h, 'unknown', { 'app.yaml': SMALL['app.yaml'].replaceAll('small-', 'unknown-') });
    t.h.emulator.faults.clear();
    t.h.emulator.faults.add({ method: 'POST', path: '/configuration/configurations/activate', drop: true, nth: 1 });
    const r = await t.h.cli(['apply', '--yes', fresh, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('may or may not have activated');
    expect(r.stderr).toContain('gwops drift');
    expect(t.h.emulator.openSessionCount()).toBe(0);
  });

  it('two applies racing: one activates, the other stops on OUTDATED_CONFIGURATION', async () => {
    const other = await writeManifests(t.h, 'race', { 'app.yaml': SMALL['app.yaml'].replace('priority: 5', 'priority: 7') });
    const third = await writeManifests(t.h, 'race2', { 'app.yaml': SMALL['app.yaml'].replace('priority: 5', 'priority: 8') });
    t.h.emulator.faults.add({ path: '*', latencyMs: 15 });
    const [a, b] = await Promise.all([t.h.cli(['apply', '--yes', other, ...t.h.connection]), t.h.cli(['apply', '--yes', third, ...t.h.connection])]);
    t.h.emulator.faults.clear();
    const codes = [a.code, b.code].sort();
    expect(codes).toEqual([0, 1]);
    const loser = a.code === 1 ? a : b;
    expect(loser.stderr).toMatch(/OUTDATED_CONFIGURATION|activated .* since/i);
    expect(t.h.emulator.openSessionCount()).toBe(0);
  });
});
