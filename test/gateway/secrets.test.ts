import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { withSession } from '../../src/gateway/lifecycle.js';
import { GatewaySession } from '../../src/gateway/session.js';
import type { FaultProxy } from './fault-proxy.js';
import { TEST_POLICY, mappingAttributes, recordingClock, useEmulatorAndProxy } from './helpers.js';

let emulator: RunningEmulator;
let proxy: FaultProxy;

useEmulatorAndProxy((e, p) => {
  emulator = e;
  proxy = p;
});

const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSECRETSECRET\n-----END PRIVATE KEY-----\n';

describe('secrets', () => {
  it('appear in no error message, inspected error or warning', async () => {
    const outputs: string[] = [];
    const record = (e: unknown): void => {
      outputs.push(e instanceof Error ? `${e.message}\n${e.stack ?? ''}\n${inspect(e, { depth: 5 })}` : String(e));
    };
    const options = { url: proxy.url, apiKey: emulator.apiKey, retry: TEST_POLICY, clock: recordingClock(), onWarning: (m: string) => outputs.push(m) };

    await withSession(options, async (s) => {
      await s.loadActive();
      const m = await s.create('mappings', { type: 'mapping', attributes: mappingAttributes('secret-m') });
      await s.update('mappings', m.id, { type: 'mapping', attributes: {} }, { kind: 'mapping', name: 'secret-m' }).catch(record);
      emulator.faults.add({ method: 'POST', path: '/configuration/ssl-certificates', status: 400, nth: 1 });
      await s.create('ssl-certificates', { type: 'ssl-certificate', attributes: { certificate: 'x', privateKey: PRIVATE_KEY } }).catch(record);
      proxy.addRule({ method: 'POST', path: /^\/configuration\/ssl-certificates$/, nth: 2, dropResponse: true });
      await s.create('ssl-certificates', { type: 'ssl-certificate', attributes: { certificate: 'y', privateKey: PRIVATE_KEY } }).catch(record);
      emulator.faults.add({ method: 'GET', path: '/configuration/mappings', status: 503 });
      await s.list('mappings').catch(record);
      emulator.faults.clear();
      emulator.expireSessions();
      await s.list('mappings').catch(record);
    }).catch(record);
    emulator.faults.add({ method: 'POST', path: '/session/terminate', status: 500 });
    await withSession(options, () => Promise.reject(new Error('work failed'))).catch(record);
    emulator.faults.clear();
    await new GatewaySession({ ...options, apiKey: `${emulator.apiKey}x` }).open().catch(record);

    expect(outputs.length).toBeGreaterThanOrEqual(7);
    expect(proxy.sessionCookies.length).toBeGreaterThanOrEqual(2);
    const all = outputs.join('\n');
    expect(all).toContain('INVALID_VALUE');
    expect(all).toContain('could not terminate');
    for (const secret of [emulator.apiKey, ...proxy.sessionCookies, 'SECRETSECRET', 'BEGIN PRIVATE KEY']) {
      expect(all.includes(secret), 'a secret leaked into an output').toBe(false);
    }
  });
});
