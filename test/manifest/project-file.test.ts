/**
 * The project file's names follow the rules of manifest names (a target name with a line
 * break would reach the CI's step outputs), and its problems are reported together with
 * the manifests' instead of one stage at a time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { hasInvisible } from '../../src/core/display.js';
import { loadManifests, loadProject } from '../../src/manifest/index.js';
import { thrownBy } from '../support/thrown.js';
import { project } from './fixture.js';

/** Characters a name may not hold: line breaks, escapes, C1, zero-width, bidi, BOM. */
const FORBIDDEN = ['\n', '\r', '\u001b', '\u0000', '\u0085', '\u200b', '\u200e', '\u202e', '\u2066', '\ufeff'];

/** A YAML double-quoted scalar for `text` (every non-ASCII or control character escaped). */
function quoted(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    out += ch === '"' || ch === '\\' ? `\\${ch}` : code >= 0x20 && code < 0x7f ? ch : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

const BASE = 'apiVersion: gwops/v1\nkind: back-end-group\nname: b\nattributes:\n  backendHosts:\n    - { hostName: b.internal, port: 8080 }\n';

describe('project file names', () => {
  it('a target or JWK Set source name is refused at its key exactly when a manifest name would be', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !hasInvisible(s)),
        fc.constantFrom(...FORBIDDEN, ''),
        fc.nat(12),
        fc.constantFrom('targets', 'jwks'),
        (visible, inserted, at, section) => {
          const name = visible.slice(0, at) + inserted + visible.slice(at);
          const value = section === 'targets' ? 'url: https://gw.example/airlock/rest' : 'url: https://idp.example/jwks';
          const dir = project({ 'gwops.yaml': `manifests: [m]\n${section}:\n  ${quoted(name)}:\n    ${value}\n` });
          const error = inserted === '' ? undefined : thrownBy(() => loadProject(dir));
          if (inserted === '') {
            expect(Object.keys(section === 'targets' ? loadProject(dir).targets : loadProject(dir).jwks)).toEqual([name]);
          } else {
            expect(error).toBeInstanceOf(InputError);
            // At the key's line, the name escaped: no raw control, zero-width or bidi character, no line break.
            expect(String((error as Error).message)).toMatch(/gwops\.yaml:3:3: (target|JWK Set source) name ".*" holds a control, zero-width or bidi character/);
            expect(hasInvisible((error as Error).message.replace(/\n {2}/g, ' '))).toBe(false);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a drift.ignore object name with an invisible character is refused too', () => {
    const dir = project({ 'gwops.yaml': 'drift:\n  ignore:\n    - { object: "mapping/shop\\u200b-api", reason: later, until: 2030-01-01 }\n' });
    expect(() => loadProject(dir)).toThrow(/gwops\.yaml:3:\d+: drift\.ignore object "mapping\/shop\\u200b-api" holds a control, zero-width or bidi character/);
  });

  it('the CI example: a target name with line breaks that would forge step outputs is refused', () => {
    const dir = project({ 'gwops.yaml': 'targets:\n  "staging\\nexitcode=0\\nreport=/proc/self/environ":\n    url: https://gw.example/airlock/rest\n' });
    expect(() => loadProject(dir)).toThrow(/gwops\.yaml:2:3: target name "staging\\nexitcode=0\\nreport=\/proc\/self\/environ" holds a control/);
  });
});

describe('project file problems all at once', () => {
  it('schema errors, bad names, drift entries and the manifests are reported in one run', async () => {
    const dir = project({
      'gwops.yaml':
        'manifests: [m]\nfoo: 1\ntargets:\n  "a\\nb":\n    url: https://gw.example/airlock/rest\n  ftp:\n    url: ftp://gw.example\n' +
        'drift:\n  ignore:\n    - { object: nokind/x, reason: later, until: 2030-01-01 }\n',
      'm/a.yaml': `${BASE}---\napiVersion: gwops/v1\nkind: back-end-group\nname: c\nattributes: { backendHosts: [ { hostName: c.internal, port: 99999 } ] }\n`,
    });
    const result = await loadManifests({ paths: [], cwd: dir, env: {} });
    const found = result.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`);
    expect(found).toEqual(['gwops.yaml:2 unknown-key', 'gwops.yaml:4 invalid-name', 'gwops.yaml:7 invalid-value', 'gwops.yaml:10 invalid-value', 'm/a.yaml:11 out-of-range']);
  });

  it('a drift entry after a malformed one is said at its own line', async () => {
    const dir = project({
      'gwops.yaml': 'manifests: [m]\ndrift:\n  ignore:\n    - { object: 5, reason: r, until: 2030-01-01 }\n    - { object: nokind/x, reason: r, until: 2030-01-01 }\n',
      'm/a.yaml': BASE,
    });
    const result = await loadManifests({ paths: [], cwd: dir, env: {} });
    expect(result.diagnostics.map((d) => `${d.line} ${d.code}`)).toEqual(['4 invalid-type', '5 invalid-value']);
    expect(result.diagnostics[1]?.message).toContain("drift.ignore object 'nokind/x'");
  });

  it('still stops with the project file problems when the run needs what they broke (the manifest paths, the target)', async () => {
    const noPaths = project({ 'gwops.yaml': 'manifest: [m]\n' });
    await expect(loadManifests({ paths: [], cwd: noPaths, env: {} })).rejects.toThrow(/gwops\.yaml:1:1: unknown key 'manifest'.*did you mean 'manifests'\?/);
    const badTarget = project({ 'gwops.yaml': 'manifests: [m]\ntargets:\n  prod: { uri: https://x }\n', 'm/a.yaml': BASE });
    await expect(loadManifests({ paths: [], cwd: badTarget, env: {}, target: 'prod' })).rejects.toThrow(/invalid project file:\n {2}gwops\.yaml:3:9: 'targets\.prod' of project file gwops\.yaml must have required property 'url'/);
    // A target whose problem leaves it usable is reported with the manifests' problems (the run stops before any call).
    const ftp = project({ 'gwops.yaml': 'manifests: [m]\ntargets:\n  prod: { url: ftp://x }\n', 'm/a.yaml': BASE });
    const loaded = await loadManifests({ paths: [], cwd: ftp, env: {}, target: 'prod' });
    expect(loaded.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['gwops.yaml:3 invalid-value']);
  });
});
