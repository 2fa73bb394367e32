/**
 * The manifests' warnings are the diagnostics of a run's first stage: shown on stderr
 * before any gateway is contacted (so a run that cannot reach its gateway still shows
 * them), and carried by the JSON documents beside the validator's messages.
 */
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const MAPPING =
  'apiVersion: gwops/v1\nkind: mapping\nname: literal-key\nattributes:\n  entryPath: { value: /literal/ }\n' +
  '  access:\n    tokenVerification:\n      jwsAlgorithm: HS_256\n      jwsKey: a-literal-hmac-key-value\n';
const WARNING = /mapping\.yaml:9:\d+: warning: secret 'access\.tokenVerification\.jwsKey' of mapping 'literal-key' is written in the manifest/;

describe('the warnings of a run', () => {
  const t = useHarness();
  const keyFile = (): string => t.h.connection[t.h.connection.indexOf('--api-key-file') + 1] ?? '';

  it.each(['plan', 'apply', 'drift'])('%s shows them before contacting a gateway that cannot be reached', async (command) => {
    const dir = await writeManifests(t.h, `run-diagnostics-${command}`, { 'mapping.yaml': MAPPING });
    const r = await t.h.cli([command, dir, '--url', 'https://127.0.0.1:1/airlock/rest', '--api-key-file', keyFile(), '--timeout', '5']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(WARNING);
    // The warning comes first; the connection error after it.
    expect(r.stderr.search(WARNING)).toBeLessThan(r.stderr.search(/127\.0\.0\.1:1/));
    expect(r.stderr + r.stdout).not.toContain('a-literal-hmac-key-value');
  });

  it('plan --format json carries them, and the validator messages, as its diagnostics', async () => {
    const dir = await writeManifests(t.h, 'run-diagnostics-json', { 'mapping.yaml': MAPPING });
    const r = await t.h.cli(['plan', dir, '--format', 'json', ...t.h.connection]);
    expect(r.stderr).toMatch(WARNING);
    const document = JSON.parse(r.stdout) as { diagnostics: { severity: string; code: string }[] };
    expect(document.diagnostics.map((d) => d.code)).toContain('literal-secret');
    // A mapping without a back-end group is the validator's to report (its own code, not gwops's).
    expect(document.diagnostics.filter((d) => d.code !== 'literal-secret').length).toBeGreaterThan(0);
  });
});
