/**
 * Drill "hostile names": object names that hold control, bidi and zero-width characters
 * (a line break followed by a GitHub workflow command, terminal escapes, a bidi override,
 * a zero-width space), from both sides:
 * - on the live gateway (created behind gwops's back, inside the ownership scope, some
 *   linked to declared objects and one mapping the validator complains about): plan,
 *   drift and export in every format must show them escaped;
 * - in a manifest: validate (text, json, github), plan and graph (mermaid, dot) must refuse
 *   the name at its line.
 * No raw control, bidi or zero-width character may reach any output (JSON escapes are
 * fine), no output line may start with a forged command or line, and no exported file
 * name may hold one. A seeded sample of the names runs in `npm test`, all of them under
 * `GWOPS_DRILLS=full`.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../e2e/harness.js';
import { startHarness } from '../e2e/harness.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { prng, sample } from './support.js';

/* eslint-disable no-control-regex -- finding control characters is the point */
/** A character that must never reach an output raw (line feed and tab are the outputs' own). */
const RAW = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/;
/* eslint-enable no-control-regex */
/** A line a hostile name tried to start. */
const FORGED = /^(::warning::|::error::|FORGED|Apply complete: forged)/m;

/** The hostile parts; each name is `hostile-<i>` with one of them inside. */
const PARTS: readonly { readonly label: string; readonly text: string }[] = [
  { label: 'line feed + workflow command', text: '\n::warning::FORGED by a name' },
  { label: 'carriage return + fake apply', text: '\rApply complete: forged\n' },
  { label: 'ESC clear screen', text: '\x1b[2J\x1b[H' },
  { label: 'ESC title (OSC, BEL)', text: '\x1b]0;owned\x07' },
  { label: 'bidi override', text: '\u202egnp.exe' },
  { label: 'bidi isolate', text: '\u2066x\u2069' },
  { label: 'zero-width space', text: '\u200b' },
  { label: 'C1 next line', text: '\x85FORGED' },
  { label: 'byte-order mark', text: '\ufeff' },
];

/** The output formats of plan and drift (the sample takes two). */
const FORMATS: readonly string[] = ['text', 'markdown', 'json'];

const hostileName = (i: number): string => `hostile-${i}-${PARTS[i]?.text ?? ''}-end`;

/** Raw characters in `text` (0 when clean). */
const rawCount = (text: string): number => [...text].filter((ch) => RAW.test(ch)).length;

const GROUP = 'apiVersion: gwops/v1\nkind: back-end-group\nname: calm-group\nattributes:\n  backendHosts:\n    - { hostName: calm.internal, port: 8080 }\n';

/** The YAML double-quoted form of a name (escapes for every character outside printable ASCII). */
function yamlQuoted(name: string): string {
  let out = '"';
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    out += ch === '"' || ch === '\\' ? `\\${ch}` : code >= 0x20 && code < 0x7f ? ch : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

interface Row {
  side: string;
  output: string;
  names: number;
  raw: number;
  forged: number;
  /** Manifest side: names not refused at their line (else 0). */
  unrefused: number;
}

async function liveSide(h: Harness, picked: readonly number[], formats: readonly string[], rows: Row[]): Promise<void> {
  const dir = join(h.dir, 'live-side');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'group.yaml'), GROUP);
  await writeFile(
    join(dir, 'gwops.yaml'),
    "manifests: ['.']\nownership:\n  back-end-group: ['name=@hostile-,calm-']\n  mapping: ['name=@hostile-']\n",
  );
  expect((await h.cli(['apply', '--yes', ...h.connection], { cwd: dir })).code).toBe(0);
  // Behind gwops's back: a back-end group and a mapping of each hostile name; the mapping links the calm group.
  await h.raw(async (s) => {
    const [calm] = await s.list('back-end-groups', ['name==calm-group']);
    for (const i of picked) {
      const name = hostileName(i);
      await s.create('back-end-groups', { type: 'back-end-group', attributes: { name, backendHosts: [{ hostName: 'h.internal', port: 8080 }] } });
      const mapping = await s.create('mappings', { type: 'mapping', attributes: { name, entryPath: { value: `/h${i}/` } } });
      if (calm) await s.link('mappings', mapping.id, 'back-end-groups', [{ type: 'back-end-group', id: calm.id }]);
    }
  }, 'hostile names');
  const check = (output: string, text: string): void => {
    rows.push({ side: 'gateway', output, names: picked.length, raw: rawCount(text), forged: FORGED.test(text) ? 1 : 0, unrefused: 0 });
  };
  // A declared change, so that plan runs its server check and shows the validator's messages about the hostile mappings.
  await writeFile(join(dir, 'group.yaml'), GROUP.replace('8080', '8081'));
  for (const format of formats) {
    const plan = await h.cli(['plan', '--format', format, ...h.connection], { cwd: dir });
    check(`plan ${format} (validator messages, unmanaged)`, plan.stdout + plan.stderr);
    const drift = await h.cli(['drift', '--format', format, ...h.connection], { cwd: dir });
    check(`drift ${format}${format === 'markdown' ? ' (mermaid)' : ''}`, drift.stdout + drift.stderr);
  }
  const out = join(h.dir, 'hostile-export');
  const exported = await h.cli(['export', ...h.connection, '--out', out]);
  const files = (await readdir(out, { recursive: true })).join('\n');
  check('export (output and file names)', exported.stdout + exported.stderr + files);
}

async function manifestSide(h: Harness, picked: readonly number[], rows: Row[]): Promise<void> {
  const dir = join(h.dir, 'manifest-side');
  await mkdir(dir, { recursive: true });
  const docs = picked.map((i) => `apiVersion: gwops/v1\nkind: back-end-group\nname: ${yamlQuoted(hostileName(i))}\nattributes:\n  backendHosts:\n    - { hostName: h.internal, port: 8080 }\n`);
  await writeFile(join(dir, 'hostile.yaml'), docs.join('---\n'));
  // The line of each name: documents are 6 lines long, separated by one `---` line.
  const nameLines = picked.map((_i, k) => 3 + k * 7);
  const runs: [string, string[]][] = [
    ['validate text', ['validate', dir]],
    ['validate json', ['validate', dir, '--format', 'json']],
    ['validate github', ['validate', dir, '--format', 'github']],
    ['plan text', ['plan', dir, ...h.connection]],
    ['graph mermaid', ['graph', dir]],
    ['graph dot', ['graph', dir, '--format', 'dot']],
  ];
  for (const [output, args] of runs) {
    const r = await h.cli(args, { cwd: h.dir });
    const text = r.stdout + r.stderr;
    const refusedAt = nameLines.filter((line) => new RegExp(`hostile\\.yaml(:|","line":|,line=)\\s*${line}\\b|"line": ${line},`).test(text) && /invalid-name/.test(text));
    rows.push({
      side: 'manifest',
      output,
      names: picked.length,
      raw: rawCount(text),
      forged: FORGED.test(text) ? 1 : 0,
      unrefused: r.code === 1 ? picked.length - refusedAt.length : picked.length,
    });
  }
}

describe('drill: hostile names', () => {
  it('no control, bidi or zero-width character of a name reaches any output raw, from the gateway or a manifest', async () => {
    const seed = drillSeed(13);
    const all = PARTS.map((_p, i) => i);
    const full = drillMode() === 'full';
    const random = prng(seed);
    const picked = full ? all : sample(all, 3, random).sort((a, b) => a - b);
    const formats = full ? FORMATS : sample(FORMATS, 2, random);
    const h = await startHarness();
    const rows: Row[] = [];
    try {
      await liveSide(h, picked, formats, rows);
      await manifestSide(h, picked, rows);
    } finally {
      await h.close();
    }
    const violations = recordDrill({
      id: 'hostile-names',
      title: 'Hostile names',
      description:
        'Object names holding control, bidi and zero-width characters (a line feed before a workflow command, a ' +
        'carriage return before a fake "Apply complete", terminal escapes, bidi overrides and isolates, a zero-width ' +
        'space, a C1 control, a byte-order mark) live on the gateway (plan with validator messages, drift with its ' +
        'picture, export and its file names, in every format) and in a manifest (validate in text, json and github, ' +
        'plan, graph as mermaid and dot). No raw character may reach an output, no line may be forged, and a ' +
        `manifest must refuse each name at its line. Names: ${picked.map((i) => PARTS[i]?.label ?? '').join('; ')}.`,
      seed,
      columns: ['names from', 'names', 'raw characters', 'forged lines', 'not refused at its line'],
      rows: rows.map((r) => [`${r.side}: ${r.output}`, r.names, r.raw, r.forged, r.unrefused]),
      mustBeZero: ['raw characters', 'forged lines', 'not refused at its line'],
    });
    expect(violations).toEqual([]);
  }, 300_000);
});
