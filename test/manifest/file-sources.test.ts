/**
 * `{ fromFile: path }` for a value marked `x-gwops-file` (a certificate's PEM, each of its
 * chain, its root CA: src/manifest/file-sources.ts): for any path a manifest may write
 * (`..` and `.` segments, absolute paths, a symbolic link out of the project, one to a
 * file inside, a directory, a missing file), the loader either reads the file inside the
 * project, or reports `file-unavailable` at the `fromFile` value's line and column; it
 * never reads a file outside the project, whatever the path.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';

const INSIDE = '-----BEGIN CERTIFICATE-----\nINSIDE-PEM\n-----END CERTIFICATE-----';
const OUTSIDE = '-----BEGIN CERTIFICATE-----\nOUTSIDE-PEM-never-read\n-----END CERTIFICATE-----';

let base: string;
let project: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'gwops-file-sources-'));
  project = join(base, 'project');
  await mkdir(join(project, 'manifests', 'certs'), { recursive: true });
  await writeFile(join(project, 'gwops.yaml'), 'manifests: [manifests]\n');
  await writeFile(join(project, 'manifests', 'certs', 'shop.crt'), `${INSIDE}\n\n`);
  await writeFile(join(base, 'outside.crt'), OUTSIDE);
  await symlink(join(base, 'outside.crt'), join(project, 'manifests', 'certs', 'out-link.crt'));
  await symlink(join(project, 'manifests', 'certs', 'shop.crt'), join(project, 'manifests', 'certs', 'in-link.crt'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** The segments a hostile path is made of. */
const SEGMENT = fc.constantFrom('..', '.', 'certs', 'manifests', 'project', 'shop.crt', 'outside.crt', 'out-link.crt', 'in-link.crt', 'missing.crt', '', '%2e%2e');

/** The manifest of a certificate whose PEM is read from `given` (quoted as JSON, which YAML reads). */
function manifest(given: string): string {
  return `apiVersion: gwops/v1\nkind: ssl-certificate\nname: shop-tls\nattributes:\n  certType: SERVER_CERT\n  certificate: { fromFile: ${JSON.stringify(given)} }\n`;
}

describe('{ fromFile } of a certificate', () => {
  it('reads a file inside the project, relative to the manifest, trailing line breaks removed', async () => {
    for (const given of ['certs/shop.crt', './certs/../certs/shop.crt', 'certs/in-link.crt']) {
      await writeFile(join(project, 'manifests', 'certs.yaml'), manifest(given));
      const loaded = await loadManifests({ paths: [], cwd: project, env: {} });
      expect(loaded.diagnostics.filter((d) => d.code === 'file-unavailable')).toEqual([]);
      expect(loaded.documents[0]?.attributes.certificate).toBe(INSIDE);
    }
  });

  it('any path: the inside file, or file-unavailable at the fromFile value; never a file outside the project', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(SEGMENT, { minLength: 1, maxLength: 6 }), fc.constantFrom('', '/', `${base}/`), async (segments, prefix) => {
        const given = `${prefix}${segments.join('/')}`;
        fc.pre(given !== '');
        await writeFile(join(project, 'manifests', 'certs.yaml'), manifest(given));
        const loaded = await loadManifests({ paths: [], cwd: project, env: {} });
        const problems = loaded.diagnostics.filter((d) => d.code === 'file-unavailable');
        const value = loaded.documents[0]?.attributes.certificate;
        expect(JSON.stringify(loaded)).not.toContain('OUTSIDE-PEM');
        if (problems.length === 0) expect(value).toBe(INSIDE);
        else expect(problems).toEqual([expect.objectContaining({ file: join('manifests', 'certs.yaml'), line: 6, column: 28, severity: 'error' })]);
      }),
      { numRuns: 60 },
    );
  });
});
