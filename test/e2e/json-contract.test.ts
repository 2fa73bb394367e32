/**
 * The output contract of `--format json` on the failure paths of plan, apply and drift,
 * end to end against the emulator: whatever stops the run (a manifest error, a step the
 * gateway refuses in the server check or the apply, the validator, an unreachable gateway),
 * stdout holds exactly one JSON document, and the human text is on stderr.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const GROUP = (name: string): string =>
  `apiVersion: gwops/v1\nkind: back-end-group\nname: ${name}\nattributes:\n  backendHosts:\n    - { hostName: ${name}.internal, port: 8080 }\n`;

interface Document {
  steps?: { action: string; name: string }[];
  diagnostics: { severity: string; code: string; object?: { kind: string; name: string }; file?: string; line?: number; message: string }[];
  outcome?: { result: string; error?: string };
  valid?: boolean;
}

/** The one JSON document of `stdout` (fails when stdout is empty or holds more than one). */
function oneDocument(stdout: string): Document {
  expect(stdout.trim(), 'stdout holds a document').not.toBe('');
  return JSON.parse(stdout) as Document;
}

/** A URL where nothing answers: a port that was just free. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `https://127.0.0.1:${port}/`;
}

describe('--format json writes one JSON document on every failure path', () => {
  const t = useHarness();

  it('plan: a step the gateway refuses in the server check gives the plan and the failed step as a located diagnostic', async () => {
    const manifests = await writeManifests(t.h, 'json-plan-step', { 'group.yaml': GROUP('json-plan-step') });
    t.h.emulator.faults.add({ method: 'POST', path: '/configuration/back-end-groups', status: 422, nth: 1 });
    const r = await t.h.cli(['plan', '--format', 'json', manifests, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(r.code).toBe(1);
    const document = oneDocument(r.stdout);
    expect(document.steps?.map((s) => `${s.action} ${s.name}`)).toEqual(['create json-plan-step']);
    const failed = document.diagnostics.filter((d) => d.code === 'step-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ severity: 'error', object: { kind: 'back-end-group', name: 'json-plan-step' }, line: 1 });
    expect(failed[0]?.file).toMatch(/group\.yaml$/);
    expect(failed[0]?.message).toContain('422');
    expect(r.stderr).toContain('nothing was activated');
  });

  it('apply: a failed step gives the plan, the failed step and the outcome', async () => {
    const manifests = await writeManifests(t.h, 'json-apply-step', { 'group.yaml': GROUP('json-apply-step') });
    t.h.emulator.faults.add({ method: 'POST', path: '/configuration/back-end-groups', status: 422, nth: 1 });
    const r = await t.h.cli(['apply', '--yes', '--format', 'json', manifests, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(r.code).toBe(1);
    const document = oneDocument(r.stdout);
    expect(document.outcome?.result).toBe('failed');
    expect(document.diagnostics.filter((d) => d.code === 'step-failed').map((d) => d.object?.name)).toEqual(['json-apply-step']);
  });

  it('plan: validator errors give the plan with the messages (exit 3)', async () => {
    const manifests = await writeManifests(t.h, 'json-plan-validator', {
      'mapping.yaml': 'apiVersion: gwops/v1\nkind: mapping\nname: json-orphan\nattributes:\n  entryPath: { value: /orphan/ }\n',
    });
    const r = await t.h.cli(['plan', '--format', 'json', manifests, ...t.h.connection]);
    expect(r.code).toBe(3);
    const document = oneDocument(r.stdout);
    expect(document.steps?.length).toBeGreaterThan(0);
    expect(document.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('plan, apply and drift: a manifest error gives the document of validate', async () => {
    const manifests = await writeManifests(t.h, 'json-manifest-error', { 'bad.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: bad\nattributes: { nope: 1 }\n' });
    for (const command of [['plan'], ['apply', '--yes'], ['drift']]) {
      const r = await t.h.cli([...command, '--format', 'json', manifests, ...t.h.connection]);
      expect(r.code, command[0]).toBe(1);
      const document = oneDocument(r.stdout);
      expect(document.valid, command[0]).toBe(false);
      expect(document.diagnostics.map((d) => d.code), command[0]).toContain('unknown-attribute');
    }
  });

  it('plan, apply and drift: a gateway that cannot be reached gives a document with the error', async () => {
    const manifests = await writeManifests(t.h, 'json-unreachable', { 'group.yaml': GROUP('json-unreachable') });
    const url = await deadUrl();
    const commands = [['plan'], ['apply', '--yes'], ['drift']];
    // Concurrently: each run waits out its retries of the refused connection.
    const runs = await Promise.all(commands.map((command) => t.h.cli([...command, '--format', 'json', manifests, '--url', url, '--api-key-file', t.h.connection[3] ?? ''])));
    for (const [i, r] of runs.entries()) {
      const command = commands[i] ?? [];
      expect(r.code, command[0]).toBe(1);
      const document = oneDocument(r.stdout);
      expect(document.valid, command[0]).toBe(false);
      const errors = document.diagnostics.filter((d) => d.severity === 'error');
      expect(errors.map((d) => d.code), command[0]).toEqual(['run-failed']);
      expect(r.stderr, command[0]).toContain('Error: ');
    }
  });

  it('drift: a failing read gives a document with the error', async () => {
    const manifests = await writeManifests(t.h, 'json-drift-read', { 'group.yaml': GROUP('json-drift-read') });
    t.h.emulator.faults.add({ method: 'GET', path: '/configuration/back-end-groups*', status: 403, nth: 1 });
    const r = await t.h.cli(['drift', '--format', 'json', manifests, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(r.code).toBe(1);
    expect(oneDocument(r.stdout).diagnostics.map((d) => d.code)).toContain('run-failed');
  });
});
