/**
 * The suite runs its files with shared modules (vitest.config.ts, `isolate: false`): a
 * file that replaces a module, stubs a global or changes the working directory would leak
 * into the files after it in the same worker. Such a file must be listed in
 * `ISOLATED_TESTS`, which runs it with a module registry of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TESTS } from '../../vitest.config.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SELF = 'test/architecture/test-isolation.test.ts';
const LEAKING = /\bvi\.(?:mock|doMock|stubGlobal|resetModules)\(|\bprocess\.chdir\(/;

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('test isolation', () => {
  const files = [...testFiles('test'), ...testFiles('src')];

  it('finds the test files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(SELF);
  });

  it('lists every file that mocks a module, stubs a global or changes directory as isolated', () => {
    // This file names the patterns it looks for, and does none of them.
    const leaking = files.filter((file) => file !== SELF && LEAKING.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(leaking.sort()).toEqual([...ISOLATED_TESTS].sort());
  });

  it('recognises what leaks', () => {
    expect(LEAKING.test("vi.mock('node:fs', () => ({}))")).toBe(true);
    expect(LEAKING.test('process.chdir(dir)')).toBe(true);
    expect(LEAKING.test('vi.fn()')).toBe(false);
  });

  it('names only files that exist', () => {
    expect(ISOLATED_TESTS.every((file) => files.includes(file))).toBe(true);
  });
});
