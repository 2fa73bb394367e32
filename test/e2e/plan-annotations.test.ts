/**
 * `gwops plan --format github` in a GitHub Actions job: the plan as text, then the
 * gateway validator's messages as annotations at their manifest lines, so a validator
 * ERROR (exit 3) lands on the line that declares the object. Properties and messages
 * escaped by GitHub's rules for workflow commands (`%`, CR, LF; `:` and `,` in properties).
 */
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const BROKEN = `apiVersion: gwops/v1
kind: back-end-group
name: noted-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]
---
apiVersion: gwops/v1
kind: virtual-host
name: noted-host
attributes:
  hostName: noted.example.com
  networkInterface: { https: { enabled: false, http2Allowed: false }, http: { enabled: true, port: 80 } }
---
apiVersion: gwops/v1
kind: mapping
name: noted-web
attributes:
  entryPath: { value: /, priority: 6 }
relationships:
  virtual-hosts: [noted-host]
`;

describe('plan --format github', () => {
  const t = useHarness();

  it('annotates each validator message at its manifest line, exit 3 on an ERROR', async () => {
    const dir = await writeManifests(t.h, 'annotated', { 'web,app:1.yaml': BROKEN });
    const r = await t.h.cli(['plan', '--format', 'github', dir, ...t.h.connection], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('+ mapping "noted-web"');
    expect(r.stdout).not.toContain('\u001b[');
    const annotations = r.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toContainEqual(expect.stringMatching(/^::error file=web%2Capp%3A1\.yaml,line=14,col=1,title=MAPPING_WITHOUT_BACKEND_GROUP::.*noted-web/));
    for (const line of annotations) expect(line).toMatch(/^::(error|warning|notice) file=web%2Capp%3A1\.yaml,line=\d+,col=\d+,title=[A-Z_]+::[^\r]*$/);
    expect(t.h.emulator.openSessionCount()).toBe(0);
  });

  it('annotates the manifests\' own errors too, before any gateway is contacted (exit 1)', async () => {
    const dir = await writeManifests(t.h, 'annotated-local', { 'bad.yaml': BROKEN.replace('port: 8080', 'port: eighty') });
    const r = await t.h.cli(['plan', '--format', 'github', dir, ...t.h.connection], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error file=bad\.yaml,line=5,col=\d+,title=[a-z-]+::/m);
    expect(r.stderr).toMatch(/^bad\.yaml:5:\d+: error: /m);
  });
});
