/**
 * A kind contributes its diagnostic codes through its module (`diagnosticCodes`,
 * src/kinds/kind.ts): each code belongs to one kind, says what it means, and is reported by
 * that kind's rules (src/core/diagnostics.ts assembles `DiagnosticCode` from the kinds; that no
 * generic module spells one is checked by test/architecture/kind-names.test.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';

const ROOT = new URL('../../', import.meta.url).pathname;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const OWNED = KINDS.flatMap((kind) => Object.entries(kind.diagnosticCodes ?? {}).map(([code, meaning]) => ({ kind: kind.type, code, meaning })));

describe('diagnostic codes of the kinds', () => {
  it('some kinds have codes of their own, each owned by one kind and described', () => {
    expect(OWNED.length).toBeGreaterThan(0);
    expect(new Set(OWNED.map((o) => o.code)).size).toBe(OWNED.length);
    expect(OWNED.filter((o) => o.meaning.trim() === '' || !/^[a-z][a-z0-9-]*$/.test(o.code))).toEqual([]);
  });

  it("each kind's rules report every code it lists", () => {
    for (const { kind, code } of OWNED) {
      const text = tsFiles(join(ROOT, 'src/kinds', kind)).map((file) => readFileSync(file, 'utf8')).join('\n');
      expect(text, `${kind} lists ${code}`).toContain(`code: '${code}'`);
    }
  });
});
