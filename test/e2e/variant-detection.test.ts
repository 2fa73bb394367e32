/**
 * The variant is read, not guessed, end to end: against an earliest (7.x) emulator without
 * `--variant`, `export` and `plan` work (gwops reads `GET /system/status/node` and picks
 * the earliest variant), and a declared variant that contradicts the gateway's version is
 * refused naming both, before anything is changed. The version→variant mapping accepts
 * the forms gateways and clients use (docs/gateway-api.md "Which variant a version is").
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { variantOfVersion } from '../../src/engine/variant.js';
import { shownFile, useHarness, writeManifests } from './harness.js';

const VIRTUAL_HOST = `apiVersion: gwops/v1
kind: virtual-host
name: shop-7x
attributes:
  hostName: shop-7x.example.com
  networkInterface:
    http: { enabled: true, port: 80 }
    https: { enabled: false, http2Allowed: false }
`;

describe('an earliest (7.x) gateway without --variant', () => {
  const t = useHarness({ variant: 'earliest' });
  let manifests = '';
  beforeAll(async () => {
    manifests = await writeManifests(t.h, 'variant-7x', { 'host.yaml': VIRTUAL_HOST });
  });

  it('export reads the kinds of the earliest variant (no acme-services list)', async () => {
    const r = await t.h.cli(['export', ...t.h.connection, '--out', join(t.h.dir, 'export-7x')]);
    expect(r.stderr).not.toContain('404');
    expect(r.code).toBe(0);
    expect(t.h.emulator.requestLog.some((e) => e.path.endsWith('/configuration/acme-services'))).toBe(false);
  });

  it('plan checks and sends the manifests as the earliest variant', async () => {
    const r = await t.h.cli(['plan', manifests, ...t.h.connection]);
    expect(r.stderr).not.toContain('unknown attribute');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('virtual-host "shop-7x" will be created');
  });

  it('a latest-only attribute is a located manifest error for this gateway, not a raw 400 of the gateway', async () => {
    const latestOnly = await writeManifests(t.h, 'variant-7x-latest-only', {
      'host.yaml': VIRTUAL_HOST.replace('shop-7x', 'tls-7x').replace('shop-7x', 'tls-7x') + '  tls:\n    signatureAlgorithmsMode: DEFAULT\n',
    });
    const before = t.h.emulator.requestLog.length;
    const r = await t.h.cli(['plan', latestOnly, ...t.h.connection]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${shownFile(join(latestOnly, 'host.yaml')).source}:`));
    expect(r.stderr).toContain("attribute 'tls.signatureAlgorithmsMode' of virtual-host 'tls-7x' exists only in the latest variant, not in the earliest variant");
    expect(r.stderr).not.toContain('400');
    // Only the session and the node status were sent: no edit reached the gateway.
    expect(t.h.emulator.requestLog.slice(before).map((e) => `${e.method} ${e.path.replace(/^.*\/airlock\/rest/, '')}`)).toEqual([
      'POST /session/create',
      'GET /system/status/node',
      'POST /session/terminate',
    ]);
  });

  it('apply then converges: plan shows no changes', async () => {
    const apply = await t.h.cli(['apply', manifests, ...t.h.connection, '--yes', '--comment', '7.x']);
    expect(apply.code).toBe(0);
    const again = await t.h.cli(['plan', manifests, ...t.h.connection, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes');
    expect(again.code).toBe(0);
  });

  it('--variant latest is refused, naming the reported version, its variant and --variant', async () => {
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    for (const command of ['plan', 'apply', 'drift']) {
      const r = await t.h.cli([command, manifests, ...t.h.connection, '--variant', 'latest', ...(command === 'apply' ? ['--yes'] : [])]);
      expect(r.code, command).toBe(1);
      expect(r.stderr).toContain('the gateway reports version 7.8, which is the earliest variant, but --variant says latest');
    }
    const exported = await t.h.cli(['export', ...t.h.connection, '--variant', 'latest', '--out', join(t.h.dir, 'export-latest')]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain('which is the earliest variant, but --variant says latest');
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });
});

describe('the version→variant mapping', () => {
  it('reads major.minor whatever form the version takes', () => {
    const cases: [string | undefined, string | undefined][] = [
      [undefined, 'earliest'],
      ['7.8', 'earliest'],
      ['7.8.2', 'earliest'],
      ['7', 'earliest'],
      ['8.0', 'middle'],
      ['8', 'middle'],
      ['8.2.1', 'middle'],
      ['8.5.1', 'middle'],
      ['8.6', 'latest'],
      ['8.6.0', 'latest'],
      ['8.6.0.1', 'latest'],
      ['v8.6', 'latest'],
      [' 8.6.0-rc1 ', 'latest'],
      ['8.6 (build 42)', 'latest'],
      ['8.10', 'latest'],
      ['9.0', 'latest'],
      ['unknown', undefined],
      ['', undefined],
      ['.8', undefined],
    ];
    expect(cases.map(([version]) => [version, variantOfVersion(version)])).toEqual(cases);
  });
});
