/**
 * The broken-manifest corpus, how validation diagnostics are checked: one folder per case under
 * `corpus/`, with the manifests (or a `gwops.yaml` naming them), an optional
 * `options.json` (`target`, `variant`, `env`) and `expected.json`, the exact diagnostics:
 * code, file, line, column, pointer and message. A message that lists every document kind
 * (an unknown or missing `kind`) is written with {@link EVERY_KIND} in place of the list,
 * which is read off the registry, so a new kind changes no expected file. `UPDATE_CORPUS=1`
 * rewrites the expected files (review the diff before committing).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasErrors, loadManifests } from '../../src/manifest/index.js';
import type { Variant } from '../../src/kinds/index.js';
import { SCHEMA_KINDS } from '../../src/schema/index.js';

const CORPUS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus');
const cases = readdirSync(CORPUS).sort();

interface CaseOptions {
  target?: string;
  variant?: Variant;
  env?: Record<string, string>;
}

/** What expected files write for the list of every document kind, in registry order. */
const EVERY_KIND = '<every document kind>';

/** The diagnostics with the list of every document kind replaced by {@link EVERY_KIND}. */
function withKindListNamed(diagnostics: unknown): unknown {
  return JSON.parse(JSON.stringify(diagnostics).replaceAll(SCHEMA_KINDS.join(', '), EVERY_KIND));
}

/** Values written as secrets somewhere in the corpus: they must never reach a message. */
const SECRET_VALUES = ['hunter2-not-a-real-passphrase', 'super-secret-hmac-key', '123456'];

describe('broken-manifest corpus', () => {
  it('has at least 50 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
  });

  it.each(cases)('%s', async (name) => {
    const dir = path.join(CORPUS, name);
    const optionsFile = path.join(dir, 'options.json');
    const options = (existsSync(optionsFile) ? JSON.parse(readFileSync(optionsFile, 'utf8')) : {}) as CaseOptions;
    const hasProject = existsSync(path.join(dir, 'gwops.yaml'));
    const result = await loadManifests({
      paths: hasProject ? [] : ['.'],
      cwd: dir,
      env: options.env ?? {},
      ...(options.target !== undefined ? { target: options.target } : {}),
      ...(options.variant !== undefined ? { variant: options.variant } : {}),
    });
    const actual = withKindListNamed(result.diagnostics);
    const expectedFile = path.join(dir, 'expected.json');
    if (process.env.UPDATE_CORPUS === '1') writeFileSync(expectedFile, JSON.stringify(actual, null, 2) + '\n');
    const expected: unknown = JSON.parse(readFileSync(expectedFile, 'utf8'));
    expect(actual).toEqual(expected);
    expect(hasErrors(result.diagnostics), 'every corpus case is broken').toBe(true);
    const text = JSON.stringify(actual);
    for (const secret of SECRET_VALUES) expect(text).not.toContain(secret);
  });
});
