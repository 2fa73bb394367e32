/**
 * With `allowExternalLinks` (export sets it) a link may name an object that no manifest
 * declares: the plan looks for it on the gateway. `gwops validate` still says each such
 * name, as a warning at the name's own line and column (with a did-you-mean when a declared
 * name is close), so that a typo shows offline and not only at plan time; without
 * `allowExternalLinks` the same names are errors. The CLI in-process (validate contacts no
 * gateway), in text and as GitHub annotations.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/in-process-cli.js';

const GROUP = `apiVersion: gwops/v1
kind: back-end-group
name: example-group
attributes:
  backendHosts:
    - { hostName: example.internal, port: 8080 }
relationships:
  client-certificate: outside-certificate
`;
const MAPPING = `apiVersion: gwops/v1
kind: mapping
name: shop
attributes:
  entryPath: { value: /shop/ }
relationships:
  back-end-groups:
    - example-group
    - exmaple-group
    - legacy-group
  virtual-hosts: [edge]
`;

/** The undeclared names with where they are written and the did-you-mean each gets. */
const UNDECLARED = [
  { at: 'group.yaml:8:23', target: "ssl-certificate 'outside-certificate'", relationship: 'client-certificate', hint: '' },
  { at: 'mapping.yaml:9:7', target: "back-end-group 'exmaple-group'", relationship: 'back-end-groups', hint: ": did you mean 'example-group'?" },
  { at: 'mapping.yaml:10:7', target: "back-end-group 'legacy-group'", relationship: 'back-end-groups', hint: '' },
  { at: 'mapping.yaml:11:19', target: "virtual-host 'edge'", relationship: 'virtual-hosts', hint: '' },
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function projectWith(config: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gwops-undeclared-links-'));
  await writeFile(join(dir, 'group.yaml'), GROUP);
  await writeFile(join(dir, 'mapping.yaml'), MAPPING);
  await writeFile(join(dir, 'gwops.yaml'), config);
  return dir;
}

describe('links to names no manifest declares', () => {
  it('with allowExternalLinks: validate warns at every such name, saying it will have to exist on the gateway', async () => {
    const dir = await projectWith('manifests: [.]\nallowExternalLinks: true\n');
    const r = await runCli(['validate'], {}, dir);
    expect(r.code, r.stderr).toBe(0);
    const output = r.stdout + r.stderr;
    for (const u of UNDECLARED) {
      const owner = u.at.startsWith('group') ? "back-end-group 'example-group'" : "mapping 'shop'";
      expect(output).toMatch(
        new RegExp(
          `^${escape(u.at)}: warning: ${escape(owner)} links to ${escape(u.target)} \\(relationship '${u.relationship}'\\), ` +
            `which is declared in no manifest and will have to exist on the gateway \\(allowExternalLinks\\)${escape(u.hint)} \\[unresolved-link\\]$`,
          'm',
        ),
      );
    }
    expect(output.match(/warning: .* declared in no manifest/g)).toHaveLength(UNDECLARED.length);
    expect(output).not.toMatch(/:1:1:/);
  });

  it('with allowExternalLinks and --format github: one warning annotation at each name', async () => {
    const dir = await projectWith('manifests: [.]\nallowExternalLinks: true\n');
    const r = await runCli(['validate', '--format', 'github'], {}, dir);
    expect(r.code, r.stderr).toBe(0);
    const annotations = r.stdout.split('\n').filter((line) => line.includes('title=unresolved-link'));
    expect(annotations.map((line) => /^::warning file=([^,]+),line=(\d+),col=(\d+),/.exec(line)?.slice(1).join(':'))).toEqual(UNDECLARED.map((u) => u.at));
    expect(annotations[1]).toMatch(/declared in no manifest and will have to exist on the gateway \(allowExternalLinks\): did you mean 'example-group'\?$/);
  });

  it('without allowExternalLinks: validate fails with an error at every such name', async () => {
    const dir = await projectWith('manifests: [.]\n');
    const r = await runCli(['validate', '--format', 'json'], {}, dir);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { diagnostics: { severity: string; code: string; file: string; line: number; column: number; message: string }[] };
    const links = report.diagnostics.filter((d) => d.code === 'unresolved-link');
    expect(links.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual(UNDECLARED.map((u) => u.at));
    expect(links.every((d) => d.severity === 'error' && d.message.includes('which no manifest defines'))).toBe(true);
  });
});
