import { describe, expect, it } from 'vitest';
import { modelTiming } from '../../tools/bench/emulator.js';
import type { BenchReport } from '../../tools/bench/emulator-report.js';
import { formatReport, median, slowestFilteredMs } from '../../tools/bench/emulator-report.js';
import { emulatorMarkdown } from '../../tools/bench/emulator-doc.js';
import { machineInfo, machineLine } from '../../tools/bench/report-doc.js';

const report: BenchReport = {
  formatVersion: 1,
  node: 'v20.0.0',
  variant: 'latest',
  transport: 'http',
  creation: { mappings: 20_000, seconds: 20 },
  sizes: [
    {
      mappings: 1_000,
      lists: [
        { filter: null, matched: 1_000, medianMs: 100, runsMs: [100] },
        { filter: 'name==mapping-00042', matched: 1, medianMs: 2, runsMs: [2] },
        { filter: 'label==team-a', matched: 10, medianMs: 3, runsMs: [3] },
      ],
    },
    {
      mappings: 20_000,
      lists: [
        { filter: null, matched: 20_000, medianMs: 4_000, runsMs: [4_000] },
        { filter: 'name==mapping-00042', matched: 1, medianMs: 12.34, runsMs: [12.34] },
        { filter: 'label==team-a', matched: 200, medianMs: 300, runsMs: [300] },
      ],
    },
  ],
  memory: {
    mappings: 20_000,
    gcForced: true,
    rssBytes: 150 * 1024 ** 2,
    heapUsedBytes: 50 * 1024 ** 2,
    heapUsedBeforeLoadBytes: 10 * 1024 ** 2,
    externalBytes: 0,
  },
  model: {
    mappings: 20_000,
    filters: [{ filter: 'label==team-a', matched: 200, medianMs: 3.5 }],
    validatorMs: 20,
    validatorMessages: 40_000,
  },
  scale: {
    rows: [
      { mappings: 1_000, createMs: 0.2, createHandlingMs: 0.3, createWallMs: 0.9, listMs: 80, listBytes: 9 * 1024 ** 2, filteredListMs: 2, activateMs: 40, deleteMs: 0.2, peakRssBytes: 150 * 1024 ** 2 },
      { mappings: 100_000, createMs: 0.45, createHandlingMs: 0.6, createWallMs: 1.1, listMs: 9_000, listBytes: 900 * 1024 ** 2, filteredListMs: 3, activateMs: 1_500, deleteMs: 0.3, peakRssBytes: 800 * 1024 ** 2 },
    ],
    transfer: { mappings: 100_000, exportMs: 20_000, archiveBytes: 30 * 1024 ** 2, importMs: 30_000, filteredListMs: 3, peakRssBytes: 900 * 1024 ** 2 },
    restart: { mappings: 100_000, startMs: 4_000, filteredListMs: 3.5, peakRssBytes: 700 * 1024 ** 2 },
  },
  targets: {
    filteredListMs: 250,
    memoryBytes: 1024 ** 3,
    filteredListMet: false,
    memoryMet: true,
    createMs: 0.5,
    createMet: true,
    scaleMemoryMet: true,
  },
};

describe('emulator bench report', () => {
  it('prints one row per size with every list side by side, and the targets with their verdicts', () => {
    const text = formatReport(report);
    const lines = text.split('\n');
    const header = lines.find((l) => l.includes('list (no filter)')) ?? '';
    expect(header).toContain('filter name==mapping-00042');
    expect(header).toContain('filter label==team-a');
    expect(lines.find((l) => l.trimStart().startsWith('20,000'))).toMatch(/4000\.0 ms \(20,000\).*12\.3 ms \(1\).*300\.0 ms \(200\)/);
    expect(lines[0]).toBe('gwops emulator benchmark (node v20.0.0, variant latest, plain HTTP, emulator in-process)');
    expect(text).toContain('created 20,000 mappings over HTTP in 20.0 s (1,000/s)');
    expect(text).toContain('under 250 ms: slowest filter 300.0 ms: MISSED');
    expect(text).toContain('memory under 1.0 GB for 20,000 mappings: RSS 150 MB, heap used 50 MB (40 MB more than before loading), after a full GC: met');
    expect(text).toContain('matchesFilter label==team-a: 3.5 ms (200 matched)');
    expect(text).toContain('validatorMessages: 20.0 ms (40,000 messages)');
  });

  it('prints the scale part: per-create handling time, list, activation and peak RSS per size, with the targets', () => {
    const lines = formatReport(report).split('\n');
    const header = lines.find((l) => l.includes('create (emulator CPU)')) ?? '';
    expect(header).toMatch(/mappings.*create \(emulator CPU\).*create \(handling\).*create \(wall\).*list \(no filter\).*activate.*delete \(emulator CPU\).*peak RSS/);
    expect(lines.find((l) => l.trimStart().startsWith('100,000'))).toMatch(/0\.450 ms.*0\.600 ms.*1\.100 ms.*9000\.0 ms \(900 MB\).*3\.0 ms.*1500\.0 ms.*0\.300 ms.*800 MB/);
    expect(lines).toContain('export and import of 100,000 mappings: export 20000.0 ms (30 MB archive), import 30000.0 ms, filtered list after 3.0 ms, peak RSS 900 MB');
    expect(lines).toContain('restart on the state file of 100,000 mappings: listening after 4000.0 ms, filtered list 3.5 ms, peak RSS 700 MB');
    expect(lines).toContain('target: a create handled in at most 0.5 ms of emulator CPU at 100,000: 0.450 ms: met');
    expect(lines).toContain('target: emulator peak RSS under 1.0 GB through the scale part: met');
  });

  it('writes docs/performance-emulator.md from the report: the command and date it was measured by, the machine and the printed report whole', () => {
    const machine = machineInfo();
    const md = emulatorMarkdown(report, '2026-11-26T12:00:00.000Z', 'npm run bench:emulator -- --scale-100k --write-docs', machine);
    expect(md).toContain('Measured by `npm run bench:emulator -- --scale-100k --write-docs` on 2026-11-26T12:00:00.000Z.');
    expect(md).toContain(machineLine(machine));
    expect(md).toContain(`\`\`\`text\n${formatReport(report)}\n\`\`\``);
  });

  it('takes the median and the slowest filtered list', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
    expect(slowestFilteredMs(report.sizes[1] ?? { mappings: 0, lists: [] })).toBe(300);
    expect(slowestFilteredMs({ mappings: 0, lists: [] })).toBeNaN();
  });

  it('times the model parts over mappings built like the emulator builds them', () => {
    const timing = modelTiming(300, 1);
    expect(timing.mappings).toBe(300);
    expect(timing.filters.map((f) => [f.filter, f.matched])).toEqual([
      ['name==mapping-00042', 1],
      ['label==team-a', 3],
    ]);
    // unlinked mappings: no back-end group (ERROR) and no virtual host (WARNING) each
    expect(timing.validatorMessages).toBe(600);
  });
});
