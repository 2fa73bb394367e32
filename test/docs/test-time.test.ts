/**
 * The generated section of CONTRIBUTING.md that says how long `npm test` takes
 * (`npm run test:time`, tools/docs/test-time.ts): it is there once, and it is exactly what
 * the generator writes for the figures it states.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECTION_END, SECTION_START, replaceSection, testTimeSection } from '../../tools/docs/test-time.js';
import type { TestTime } from '../../tools/docs/test-time.js';
import { REPO } from '../e2e/harness.js';

const RUN: TestTime = { date: '2026-11-25', machine: '2 × Test CPU, 7.8 GiB, linux 6.1', node: 'v20.19.0', load: 0.42, seconds: 187.6, args: [] };

describe('how long npm test takes (CONTRIBUTING.md)', () => {
  it('is one generated section, in the form the generator writes', () => {
    const text = readFileSync(join(REPO, 'CONTRIBUTING.md'), 'utf8');
    expect(text.split(SECTION_START)).toHaveLength(2);
    const section = text.slice(text.indexOf(SECTION_START), text.indexOf(SECTION_END) + SECTION_END.length);
    const line = section.split('\n')[1] ?? '';
    const m = /^`npm test(?: -- (.+))?` took \*\*(\d+) s\*\* on (\d{4}-\d{2}-\d{2}), on (.+) \(Node\.js (v[\d.]+), load average ([\d.]+) at the start\)\.$/.exec(line);
    expect(m, `the section holds no figure written by npm run test:time:\n${section}`).not.toBeNull();
    const [, args, seconds, date, machine, node, load] = m ?? [];
    expect(machine).toMatch(/^\d+ × .+, [\d.]+ GiB, /);
    const run: TestTime = { date: date ?? '', machine: machine ?? '', node: node ?? '', load: Number(load), seconds: Number(seconds), args: args?.split(' ') ?? [] };
    expect(testTimeSection(run)).toBe(section);
  });

  it('is replaced whole, and only where there is exactly one', () => {
    const text = `# C\n\n${SECTION_START}\nold\n${SECTION_END}\n\nafter\n`;
    expect(replaceSection(text, testTimeSection(RUN))).toBe(
      `# C\n\n${SECTION_START}\n\`npm test\` took **188 s** on 2026-11-25, on 2 × Test CPU, 7.8 GiB, linux 6.1 (Node.js v20.19.0, load average 0.4 at the start).\n${SECTION_END}\n\nafter\n`,
    );
    expect(testTimeSection({ ...RUN, args: ['test/reconcile'] })).toContain('`npm test -- test/reconcile` took');
    expect(() => replaceSection('# C\n', 'x')).toThrow(/exactly one section/);
    expect(() => replaceSection(`${text}${text}`, 'x')).toThrow(/exactly one section/);
  });
});
