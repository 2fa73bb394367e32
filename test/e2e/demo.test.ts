import { describe, expect, it } from 'vitest';
import { runBounded } from '../support/bounded-process.js';
import { DEMO_COMMIT_AUTHOR, DEMO_COMMIT_SUBJECT, demoRepository } from '../../src/demo/repository.js';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
    // A key rotation at the login application is not a change on the gateway.
    expect(rotation).not.toContain('changed outside gwops');
    expect(rotation).not.toContain('Changed on the gateway');
    expect(rotation).toContain('Drift detected: the key source the manifests read keys from ("login") rotated its keys');
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
    // The activation comment names the demo repository's commit, whole and the same in every run; never gwops's own.
    const comments = [...stdout.matchAll(/activated with comment "([^"]*)"/g)].map((m) => m[1]);
    expect(comments).toHaveLength(4);
    for (const comment of comments) {
      expect(comment).toMatch(new RegExp(`^gwops apply: [0-9a-f]{7} ${DEMO_COMMIT_SUBJECT} \\(${DEMO_COMMIT_AUTHOR}\\) gwops-project=[0-9a-f]{12}$`));
    }
    expect(new Set(comments.map((c) => c?.split(' ')[2])).size).toBe(1);
  });

  it('commits the examples with a fixed subject, author and date: the same commit in every run', async () => {
    const dirs = [await mkdtemp(join(tmpdir(), 'gwops-demo-test-')), await mkdtemp(join(tmpdir(), 'gwops-demo-test-'))];
    try {
      const heads: string[] = [];
      for (const dir of dirs) {
        const repository = await demoRepository(dir);
        expect(repository).toBeDefined();
        heads.push(execFileSync('git', ['log', '-1', '--format=%H %s (%an)'], { cwd: repository?.cwd ?? dir, encoding: 'utf8' }).trim());
      }
      expect(heads[0]).toMatch(new RegExp(`^[0-9a-f]{40} ${DEMO_COMMIT_SUBJECT} \\(${DEMO_COMMIT_AUTHOR}\\)$`));
      expect(heads[1]).toBe(heads[0]);
    } finally {
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    }
  });
});
