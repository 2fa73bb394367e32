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

/** The JSON documents written one after the other on a stream (as `jq` reads them). */
function jsonDocuments(text: string): unknown[] {
  return text
    .split(/(?<=^\})\n(?=\{)/m)
    .filter((part) => part.trim() !== '')
    .map((part) => JSON.parse(part) as unknown);
}

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
    // The line form of every diagnostic, a manifest error's too: file:line:col: severity: message [code].
    expect(r.stderr).toMatch(/^\S*app\.yaml:\d+:\d+: error: .*small-web.* \[MAPPING_WITHOUT_BACKEND_GROUP\]$/m);
    expect(r.stderr).toMatch(/^\d+ errors?, \d+ warnings?$/m);
    expect(r.stderr).toContain("Error: the gateway's validator reported 1 error; nothing was activated");
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
    expect(t.h.emulator.openSessionCount()).toBe(0);

    // --format json: one document, the plan with the validator's messages in `diagnostics` (as validate shows them) and the outcome.
    const json = await t.h.cli(['apply', '--yes', '--format', 'json', broken, ...t.h.connection]);
    expect(json.code).toBe(3);
    const documents = jsonDocuments(json.stdout);
    expect(documents).toHaveLength(1);
    const [plan] = documents;
    expect(plan).toMatchObject({ formatVersion: '7.0', outcome: { result: 'failed' } });
    expect((plan as { diagnostics: unknown[] }).diagnostics).toContainEqual({
      severity: 'error',
      code: 'MAPPING_WITHOUT_BACKEND_GROUP',
      file: expect.stringMatching(/app\.yaml$/) as unknown,
      line: expect.any(Number) as unknown,
      column: 1,
      pointer: '',
      object: { kind: 'mapping', name: 'small-web' },
      message: expect.stringContaining('small-web') as unknown,
    });
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });

  it('plan reports the validator messages like validate: text lines, and diagnostics in --format json', async () => {
    const broken = await writeManifests(t.h, 'broken-plan', {
      'app.yaml': SMALL['app.yaml']
        .replaceAll('small-', 'planned-')
        .replace('entryPath: { value: /, priority: 6 }\nrelationships:\n  back-end-groups: [planned-backend]\n', 'entryPath: { value: /, priority: 6 }\nrelationships:\n'),
    });
    const text = await t.h.cli(['plan', broken, ...t.h.connection]);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/^Gateway validator messages:\n\S*app\.yaml:\d+:1: error: .*planned-web.* \[MAPPING_WITHOUT_BACKEND_GROUP\]$/m);
    const json = await t.h.cli(['plan', '--format', 'json', broken, ...t.h.connection]);
    expect(json.code).toBe(3);
    const parsed = JSON.parse(json.stdout) as { formatVersion: string; diagnostics: { code: string; object?: unknown }[] };
    expect(parsed.formatVersion).toBe('7.0');
    expect(parsed.diagnostics).toContainEqual(expect.objectContaining({ code: 'MAPPING_WITHOUT_BACKEND_GROUP', object: { kind: 'mapping', name: 'planned-web' } }));
    expect(t.h.emulator.openSessionCount()).toBe(0);
  });

  it('a link to an object that exists nowhere is a diagnostic too (unresolved-link) at the line of the link, in text and JSON', async () => {
    const dir = await writeManifests(t.h, 'external', {
      'gwops.yaml': 'manifests: [m.yaml]\nallowExternalLinks: true\n',
      'm.yaml': 'apiVersion: gwops/v1\nkind: mapping\nname: external-api\nattributes:\n  entryPath: { value: /external/ }\nrelationships:\n  back-end-groups: [ghost-backend]\n',
    });
    const config = ['--config', join(dir, 'gwops.yaml')];
    const text = await t.h.cli(['plan', ...config, ...t.h.connection]);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(
      /^\S*m\.yaml:7:21: error: mapping 'external-api' back-end-groups names back-end-group 'ghost-backend', which no manifest declares and the gateway does not have: .* \[unresolved-link\]$/m,
    );
    expect(text.stderr).toContain('Error: the manifests have 1 link to objects that no manifest declares and the gateway does not have; nothing was changed');
    const json = await t.h.cli(['plan', '--format', 'json', ...config, ...t.h.connection]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      valid: false,
      diagnostics: [
        // validate's warning that it will have to exist on the gateway, then the plan's error that it does not
        { severity: 'warning', code: 'unresolved-link', line: 7, column: 21 },
        { severity: 'error', code: 'unresolved-link', line: 7, column: 21, object: { kind: 'mapping', name: 'external-api' } },
      ],
    });
    expect(t.h.emulator.openSessionCount()).toBe(0);
  });

  it('a manifest error with --format json prints the JSON document of validate on stdout', async () => {
    const broken = await writeManifests(t.h, 'local-json', {
      'app.yaml': SMALL['app.yaml'].replace('http2Allowed: false', 'http2Allowed: true'),
    });
    const r = await t.h.cli(['plan', '--format', 'json', broken, ...t.h.connection]);
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as { valid: boolean; diagnostics: { code: string }[] };
    expect(parsed.valid).toBe(false);
    expect(parsed.diagnostics.map((d) => d.code)).toContain('http2-without-https');
    expect(r.stderr).toMatch(/^Error: the manifests have 1 error; nothing was sent to the gateway$/m);
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

  it('with --verbose, reports the steps applied before a failed one and those skipped after it', async () => {
    const fresh = await writeManifests(t.h, 'report', { 'app.yaml': SMALL['app.yaml'].replaceAll('small-', 'report-') });
    t.h.emulator.faults.clear();
    // The virtual host's create carries its links to both mappings: all three steps fail with it.
    t.h.emulator.faults.add({ method: 'POST', path: '/configuration/virtual-hosts', status: 500, nth: 1 });
    const r = await t.h.cli(['apply', '--yes', '--verbose', fresh, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/applied +create back-end-group 'report-backend'/);
    expect(r.stderr).toMatch(/failed +create virtual-host 'report-host'.* 500 INJECTED_FAULT/);
    expect(r.stderr).toMatch(/failed +link virtual-host 'report-host' mappings → mapping 'report-api'.* 500 INJECTED_FAULT/);
    expect(r.stderr).toMatch(/failed +link virtual-host 'report-host' mappings → mapping 'report-web'.* 500 INJECTED_FAULT/);
    expect(r.stderr).toMatch(/skipped +link mapping 'report-(api|web)' back-end-groups/);
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
