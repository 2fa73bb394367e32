/**
 * Built-in entities (docs/gateway-api.md "Documents and ids"): the emulator lists a default
 * virtual host and a default certificate under negative ids, as a real gateway lists its
 * built-ins. gwops leaves them out of its live state (`isBuiltInId`), so an ownership scope
 * that matches them never plans to delete them, drift never reports them, and applying
 * the examples still converges. A manifest that declares a built-in object is refused,
 * located, before any change is sent, instead of being planned as the creation of a second
 * object of that name.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificateFingerprint } from '../../src/kinds/ssl-certificate/identity.js';
import { useHarness, writeManifests } from './harness.js';

/** A scope that matches both built-ins: the virtual host by name, the certificate by type. */
const PROJECT = `ownership:
  virtual-host: ['name=@default']
  ssl-certificate: ['certType==SERVER_CERT']
`;

const VIRTUAL_HOST = (name: string): string => `apiVersion: gwops/v1
kind: virtual-host
name: ${name}
attributes:
  hostName: ${name}.example.com
  networkInterface:
    http: { enabled: true, port: 80 }
    https: { enabled: false, http2Allowed: false }
`;

interface Snapshot {
  objects: { type: string; id: string; attributes: Record<string, unknown> }[];
}

function builtIns(snapshot: unknown): string[] {
  return (snapshot as Snapshot).objects.filter((o) => o.id.startsWith('-')).map((o) => `${o.type} ${o.id}`).sort();
}

describe('built-in entities and gwops', () => {
  const t = useHarness();
  let project = '';
  let manifests = '';
  let builtInCertificate = '';

  beforeAll(async () => {
    project = join(await writeManifests(t.h, 'built-ins-project', { 'gwops.yaml': PROJECT }), 'gwops.yaml');
    manifests = await writeManifests(t.h, 'built-ins-manifests', { 'virtual-hosts.yaml': VIRTUAL_HOST('default-shop') });
    const certificate = (t.h.emulator.activeSnapshot() as Snapshot).objects.find((o) => o.type === 'ssl-certificate' && o.id === '-1000');
    builtInCertificate = certificateFingerprint(String(certificate?.attributes.certificate)) ?? '';
  });

  const run = (command: string, ...flags: string[]) => t.h.cli([command, '--config', project, ...t.h.connection, ...flags, manifests]);

  it('the fresh emulator lists the built-ins', () => {
    expect(builtIns(t.h.emulator.activeSnapshot())).toEqual(['ssl-certificate -1000', 'virtual-host -1000']);
    expect(builtInCertificate).toMatch(/^[0-9a-f]{64}$/);
  });

  it('plan --prune with a scope that matches them plans no delete of them', async () => {
    const plan = await run('plan', '--prune', '--detailed-exitcode');
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/Plan: 1 to create, 0 to update, 0 to delete/);
    expect(plan.stdout).not.toContain('"default"');
    expect(plan.stdout).not.toContain(builtInCertificate.slice(0, 16));
  });

  it('apply --prune leaves them in place, then plan and drift see nothing else', async () => {
    const apply = await run('apply', '--yes', '--prune', '--comment', 'built-ins');
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(builtIns(t.h.emulator.activeSnapshot())).toEqual(['ssl-certificate -1000', 'virtual-host -1000']);
    const plan = await run('plan', '--prune', '--detailed-exitcode');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes');
    const drift = await run('drift');
    expect(drift.code).toBe(0);
    expect(drift.stdout).toContain('No drift');
    expect(drift.stdout).not.toContain('"default"');
    expect(drift.stdout).not.toContain(builtInCertificate.slice(0, 16));
  });

  it('a manifest naming a built-in is refused in scope too, not planned as a second object of that name', async () => {
    const named = await writeManifests(t.h, 'built-ins-named', { 'virtual-hosts.yaml': `${VIRTUAL_HOST('default-shop')}---\n${VIRTUAL_HOST('default')}` });
    const plan = await t.h.cli(['plan', '--config', project, ...t.h.connection, named]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/virtual-hosts\.yaml:\d+:1: error: virtual-host 'default' is built into the gateway/);
    expect(plan.stdout).not.toContain('+ virtual-host "default"');
  });

  it('applying the examples still converges with the built-ins present', async () => {
    const apply = await t.h.cli(['apply', '--yes', ...t.config, '--comment', 'examples']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const plan = await t.h.cli(['plan', ...t.config, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    const drift = await t.h.cli(['drift', ...t.config]);
    expect(drift.code).toBe(0);
    expect(builtIns(t.h.emulator.activeSnapshot())).toEqual(['ssl-certificate -1000', 'virtual-host -1000']);
  });
});

const DEFAULT_HOST = `apiVersion: gwops/v1
kind: virtual-host
name: default
attributes:
  hostName: www.example.com
`;

describe('a manifest that declares a built-in object', () => {
  const t = useHarness();

  it('is refused with its file and line by plan and apply, and nothing is written', async () => {
    const dir = await writeManifests(t.h, 'built-in', { 'vh.yaml': DEFAULT_HOST });
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    for (const args of [['plan'], ['apply', '--yes']]) {
      t.h.emulator.requestLog.length = 0;
      const r = await t.h.cli([...args, dir, ...t.h.connection]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/vh\.yaml:1:1: error: virtual-host 'default' is built into the gateway, which refuses every change to it/);
      expect(r.stderr).toContain('[built-in-object]');
      expect(r.stdout).not.toContain('will be created');
      // Only reading calls: the session, the lists, and its end.
      expect(t.h.emulator.requestLog.filter((e) => e.method !== 'GET' && !e.path.startsWith('/session/') && !e.path.endsWith('/load-active'))).toEqual([]);
      expect(t.h.emulator.openSessionCount()).toBe(0);
    }
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });
});
