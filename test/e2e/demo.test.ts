import { describe, expect, it } from 'vitest';
import { runBounded } from '../support/bounded-process.js';

describe('gwops demo (what npm run demo runs)', () => {
  it('tells the whole story with the expected exit code at every step and prints no secret', async () => {
    // As a process of its own, as npm run demo runs it: stderr is empty (no progress lines between the steps).
    const { code, stdout, stderr, killed } = await runBounded(['demo'], { env: { PATH: process.env.PATH, NO_COLOR: '1' }, cpuMs: 120_000 });
    expect(killed).toBeUndefined();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const step of ['1. Validate', '2. Plan', '3. Apply', '4. Drift check', "5. A change behind gwops's back", '6. Drift check', '7. Apply heals', '8. Drift check', '9. Token keys', '10. The login application rotates', '11. Drift check', '12. Apply heals']) {
      expect(stdout).toContain(step);
    }
    expect(stdout).toContain('Demo complete.');
    expect(stdout).not.toMatch(/unexpected result/);
    expect(stdout).toContain('threatHandling');
    // The rotation: drift names both mappings of examples/login-app with the old and the new kid.
    const rotation = stdout.slice(stdout.indexOf('11. Drift check'), stdout.indexOf('12. Apply heals'));
    for (const name of ['token-api-orders', 'token-api-invoices']) expect(rotation).toContain(`mapping "${name}"`);
    expect(rotation).toMatch(/jwsKey: manifests \(public key kid emulator-key-2 \(thumbprint [\w-]{43}\)\), gateway \(public key kid emulator-key-1 \(thumbprint [\w-]{43}\)\)/);
    expect(stdout).not.toContain('BEGIN PUBLIC KEY');
    // The emulator's key is a JWT and the example keys are PEM: neither may appear.
    expect(stdout).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+\./);
    expect(stdout).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    // What a person reads: a few hundred lines, certificates by subject, SANs, validity and fingerprint, long plans folded.
    expect(stdout.split('\n').length).toBeLessThanOrEqual(300);
    expect(stdout).not.toContain('-----BEGIN');
    const plan = stdout.slice(stdout.indexOf('2. Plan'), stdout.indexOf('3. Apply'));
    expect(plan).toContain('+ certificate = (certificate)');
    expect(plan).toMatch(/subject: +CN=shop\.example\.com, O=Example Retail AG, C=CH/);
    expect(plan).toMatch(/SANs: +DNS:shop\.example\.com, DNS:www\.shop\.example\.com/);
    expect(plan).toMatch(/notBefore: +2026-11-01T00:00:00Z\n +notAfter: +2027-11-01T00:00:00Z/);
    expect(plan).toMatch(/SHA-256: +([0-9A-F]{2}:){31}[0-9A-F]{2}/);
    expect(plan).toMatch(/… \d+ more lines left out of the demo/);
    expect(plan).toContain('Plan: 37 to create');
  });

});
