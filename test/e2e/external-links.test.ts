/**
 * With `allowExternalLinks` (export sets it), a link to a name no manifest declares is
 * looked for on the gateway. A typo in such a name is said offline by validate, as a
 * warning at the link's own line and column with a did-you-mean, and the plan that cannot
 * find it on the gateway either names the same place, not the document's first line.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const GROUP = 'apiVersion: gwops/v1\nkind: back-end-group\nname: example-group\nattributes:\n  backendHosts:\n    - { hostName: example.internal, port: 8080 }\n';
const MAPPING =
  'apiVersion: gwops/v1\nkind: mapping\nname: typo-mapping\nattributes:\n  entryPath: { value: /typo/ }\nrelationships:\n  back-end-groups:\n    - example-group\n    - exmaple-group\n';

describe('a typo in a link name while external links are allowed', () => {
  const t = useHarness();

  it('validate warns offline at the link with a did-you-mean; plan fails at the same line and column', async () => {
    const dir = await writeManifests(t.h, 'external-links', { 'group.yaml': GROUP, 'mapping.yaml': MAPPING });
    const project = join(dir, 'gwops.yaml');
    await writeFile(project, 'manifests: [.]\nallowExternalLinks: true\n');
    const where = /mapping\.yaml:9:7/;

    const validate = await t.h.cli(['validate', '--config', project]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    const output = validate.stdout + validate.stderr;
    expect(output).toMatch(where);
    expect(output).toMatch(/warning: mapping 'typo-mapping' links to back-end-group 'exmaple-group' \(relationship 'back-end-groups'\), which is declared in no manifest and will have to exist on the gateway \(allowExternalLinks\): did you mean 'example-group'\?/);

    const plan = await t.h.cli(['plan', '--config', project, ...t.h.connection]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/mapping\.yaml:9:7: error: mapping 'typo-mapping' back-end-groups names back-end-group 'exmaple-group', which no manifest declares and the gateway does not have/);
    expect(plan.stderr).not.toMatch(/mapping\.yaml:1:1/);
    // The plan runs the same validation first: its warning, at the same place.
    expect(plan.stderr).toMatch(/mapping\.yaml:9:7: warning: .*'exmaple-group'.*will have to exist on the gateway/);

    // Without allowExternalLinks it stays an error of validate, at the same place.
    await writeFile(project, 'manifests: [.]\n');
    const strict = await t.h.cli(['validate', '--config', project]);
    expect(strict.code).toBe(1);
    expect(strict.stdout + strict.stderr).toMatch(/mapping\.yaml:9:7: error: .*which no manifest defines: did you mean 'example-group'\?/);
  });
});
