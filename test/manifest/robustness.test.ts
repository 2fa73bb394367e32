/**
 * loadManifests never throws for bad manifest content: any text, including mutilated
 * manifests, yields diagnostics with real positions.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { project } from './fixture.js';

const VALID = `apiVersion: gwops/v1
kind: mapping
name: shop-api
attributes:
  entryPath: { value: "^/shop/", regexFormatEnforced: true, priority: 10 }
  access:
    tokenVerification: { jwsAlgorithm: HS_256, jwsKey: { fromEnv: JWS } }
  allowRules:
    - name: all
      pathPattern: { pattern: ".*" }
relationships:
  virtual-hosts: [shop]
---
apiVersion: gwops/v1
kind: virtual-host
name: shop
attributes: { networkInterface: { https: { enabled: true, http2Allowed: true } } }
`;

describe('loadManifests on arbitrary input', () => {
  const dir = project({});
  const file = path.join(dir, 'm.yaml');

  it('never throws and always gives positions inside the file (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          // Mutilate the valid text: delete, duplicate or replace a slice.
          fc.tuple(fc.nat(VALID.length), fc.nat(40), fc.string({ maxLength: 20 })).map(
            ([at, len, insert]) => VALID.slice(0, at) + insert + VALID.slice(Math.min(VALID.length, at + len)),
          ),
        ),
        async (text) => {
          writeFileSync(file, text);
          const result = await loadManifests({ paths: ['m.yaml'], cwd: dir, env: { JWS: 'k' } });
          const lines = text.split(/\r?\n|\r/).length;
          for (const d of result.diagnostics) {
            expect(d.file).toBe('m.yaml');
            expect(d.line).toBeGreaterThanOrEqual(1);
            expect(d.line).toBeLessThanOrEqual(lines + 1);
            expect(d.column).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts the unmutilated text', async () => {
    writeFileSync(file, VALID);
    const result = await loadManifests({ paths: ['m.yaml'], cwd: dir, env: { JWS: 'k' } });
    expect(result.diagnostics).toEqual([]);
  });
});
