/**
 * test/ mirrors the code (docs/architecture.md "Where things live"): each folder of test/
 * is named after a folder of src/ or tools/ whose modules it tests, or is one of the few
 * folders for what crosses every part. A new test folder that mirrors nothing fails here.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The folders of test/ that mirror no code folder, and what they hold. */
const CROSS_CUTTING: Readonly<Record<string, string>> = {
  architecture: 'the layout and import rules of the whole code',
  ci: 'the GitHub action and the workflows, run as CI runs them',
  drills: 'the reliability drills (npm run drills)',
  e2e: 'the CLI against the emulator over real HTTP',
  examples: 'the example projects',
  golden: 'the rendered outputs, case by case',
  lint: 'the ESLint rules of the repository',
  support: 'helpers shared by the tests',
};

function folders(dir: string): string[] {
  return readdirSync(`${ROOT}${dir}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

describe('the layout of test/', () => {
  it('mirrors src/ and tools/: every folder is named after a code folder or is a cross-cutting one', () => {
    const code = new Set([...folders('src'), ...folders('tools')]);
    const tests = folders('test');
    expect(tests.length).toBeGreaterThan(10);
    expect(tests.filter((name) => !code.has(name) && !(name in CROSS_CUTTING))).toEqual([]);
  });

  it('holds no test file at its root', () => {
    const loose = readdirSync(`${ROOT}test`).filter((name) => name.endsWith('.ts'));
    expect(loose).toEqual([]);
  });

  it('tests the core modules and the engine where they live', () => {
    for (const folder of ['core', 'engine', 'operations']) expect(folders('test'), folder).toContain(folder);
  });
});
