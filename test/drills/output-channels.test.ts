/**
 * Drill "output channels": every source of text gwops did not write, holding hostile
 * strings (output-oracle.ts `HOSTILE`: CR and LF before workflow commands and output lines,
 * escape sequences, `::`, markdown links and autolinks, `@mentions`, HTML, backticks and
 * pipes, bidi and zero-width characters, long strings), through every output channel.
 *
 * Sources: manifest file names; the project file's target names; object names on the
 * gateway (made behind gwops's back, inside the ownership scope: the validator's messages
 * name them); attribute values changed on the gateway; an activation comment; the
 * gateway's error texts (a fake gateway answering with them). Channels: stdout and stderr
 * of plan (text, markdown, json, github), drift (text, markdown, json), drift --adopt,
 * export and targets, each with colours forced on and off; the plan file of `--out` and the
 * files export writes (names and contents); the action's run step as a runner runs it
 * (test/ci/action-runner.ts: $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY).
 *
 * The oracle is the bytes on each channel (output-oracle.ts `channelViolations`): no raw
 * CR, ESC or other control character of the input (gwops's own colour codes only with
 * colours on), no line starting with `::` that gwops did not write, no line that sets an
 * output, no live markdown link, autolink, mention or HTML of the input, JSON that parses,
 * and the action's outputs exactly the ones its run step sets. A seeded sample of the
 * strings and channels runs in `npm test`, all of them under `GWOPS_DRILLS=full`.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { GatewaySession } from '../../src/gateway/index.js';
import { withSession } from '../../src/gateway/index.js';
import { ROOT, loadAction, runComposite } from '../ci/action-runner.js';
import { startFakeGateway } from '../gateway/fake-gateway.js';
import { HOSTILE, REFUSED_IN_KEYS, channelViolations } from './output-oracle.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { prng, sample } from './support.js';

/** A file name holding `text`: no `/` or NUL, at most 200 bytes. */
function fileName(text: string, i: number): string {
  let name = `f${i}-${text.replace(/[/\0]/g, '_')}`;
  while (Buffer.byteLength(name) > 200) name = name.slice(0, -1);
  return `${name}.yaml`;
}

/** The YAML double-quoted form of `text` (escapes for every character outside printable ASCII). */
function quoted(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    out += ch === '"' || ch === '\\' ? `\\${ch}` : code >= 0x20 && code < 0x7f ? ch : `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

const GROUP = 'apiVersion: gwops/v1\nkind: back-end-group\nname: ocd-group\nattributes:\n  backendHosts:\n    - { hostName: ocd.internal, port: 8080 }\n';
const mapping = (i: number): string =>
  `apiVersion: gwops/v1\nkind: mapping\nname: ocd-decl-${i}\nattributes:\n  entryPath: { value: /ocd${i}/ }\n  expertSettings: { apache: { settings: "Header set X-Ocd ${i}\\n" } }\nrelationships:\n  back-end-groups: [ocd-group]\n`;

/** What a run of gwops printed. */
interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The emulator in a child process (the built tools/bench/emulator-child.ts, plain HTTP): the
 * action's steps run gwops with spawnSync, which would block an emulator in this process.
 */
interface ChildGateway {
  readonly dir: string;
  /** `--url … --api-key-file …` */
  readonly connection: readonly string[];
  /** gwops in-process, in `cwd`, with `env`. */
  cli(args: readonly string[], options?: { cwd?: string; env?: Record<string, string | undefined> }): Promise<CliRun>;
  /** Raw API calls behind gwops's back, activated with `comment`. */
  raw(fn: (session: GatewaySession) => Promise<void>, comment: string): Promise<void>;
  close(): Promise<void>;
}

async function startChildGateway(): Promise<ChildGateway> {
  const child: ChildProcess = fork(join(ROOT, 'dist-tools', 'bench', 'emulator-child.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { url, apiKey } = await new Promise<{ url: string; apiKey: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; apiKey: string }));
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${String(code)}`)));
  });
  const dir = await mkdtemp(join(tmpdir(), 'gwops-channels-'));
  const keyFile = join(dir, 'api-key');
  await writeFile(keyFile, apiKey, { mode: 0o600 });
  return {
    dir,
    connection: ['--url', url, '--api-key-file', keyFile],
    async cli(args, options = {}) {
      let stdout = '';
      let stderr = '';
      const code = await main(['node', 'gwops', ...args], {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        env: { PATH: process.env.PATH, CI: 'true', ...options.env },
        cwd: options.cwd ?? dir,
        isTTY: false,
        stdin: Readable.from([]),
      });
      return { code, stdout, stderr };
    },
    async raw(fn, comment) {
      await withSession({ url, apiKey }, async (session) => {
        await session.loadActive();
        await fn(session);
        await session.activate(comment);
      });
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One channel's figures. */
interface Row {
  readonly channel: string;
  readonly violations: readonly string[];
}

/** The project: a file per hostile string declaring a mapping, applied, then changed behind gwops's back. */
async function setUp(h: ChildGateway, strings: readonly string[]): Promise<string> {
  const dir = join(h.dir, 'channels');
  await mkdir(join(dir, 'manifests'), { recursive: true });
  await writeFile(join(dir, 'manifests', 'group.yaml'), GROUP);
  for (const [i, text] of strings.entries()) await writeFile(join(dir, 'manifests', fileName(text, i)), mapping(i));
  await writeFile(join(dir, 'gwops.yaml'), "manifests: [manifests]\nownership:\n  back-end-group: ['name=@ocd-']\n  mapping: ['name=@ocd-']\n");
  expect((await h.cli(['apply', '--yes', ...h.connection], { cwd: dir })).code).toBe(0);
  // Behind gwops's back, activated with a hostile comment: a value of each declared mapping, and a mapping named by each string.
  await h.raw(async (s) => {
    const live = await s.list('mappings', ['name=@ocd-decl-']);
    const [group] = await s.list('back-end-groups', ['name==ocd-group']);
    for (const [i, text] of strings.entries()) {
      const declared = live.find((m) => m.attributes.name === `ocd-decl-${i}`);
      if (declared) await s.update('mappings', declared.id, { type: 'mapping', attributes: { expertSettings: { apache: { settings: `Header set X-Ocd ${text}\n` } } } });
      const made = await s.create('mappings', { type: 'mapping', attributes: { name: `ocd-live-${i}-${text}`, entryPath: { value: `/live${i}/` } } });
      if (group) await s.link('mappings', made.id, 'back-end-groups', [{ type: 'back-end-group', id: group.id }]);
    }
  }, `hand-made ${strings.join(' ')}`);
  // A declared change, so that plan has steps and runs its server check.
  await writeFile(join(dir, 'manifests', 'group.yaml'), GROUP.replace('8080', '8081'));
  return dir;
}

/** The names of the files under `dir`, relative to it. */
async function fileNames(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort();
}

/** The files under `dir`: the names not in `existing` (those gwops wrote) and every file's content (names and contents are channels). */
async function filesText(dir: string, existing: ReadonlySet<string> = new Set()): Promise<string> {
  const parts: string[] = [];
  for (const name of await fileNames(dir)) {
    const path = join(dir, name);
    if (!(await stat(path)).isFile()) continue;
    if (!existing.has(name)) parts.push(name);
    parts.push(await readFile(path, 'utf8'));
  }
  return parts.join('\n');
}

describe('drill: output channels', () => {
  it('no text of the input drives a terminal, a CI log, a workflow command, an output, markdown or JSON', async () => {
    const seed = drillSeed(42);
    const full = drillMode() === 'full';
    const random = prng(seed);
    const picked = full ? [...HOSTILE] : sample(HOSTILE, 4, random);
    const strings = picked.map((p) => p.text);
    const colourModes: readonly [string, Record<string, string | undefined>][] = [
      ['colours on', { FORCE_COLOR: '1' }],
      ['colours off', { FORCE_COLOR: undefined, NO_COLOR: '1' }],
    ];
    const rows: Row[] = [];
    const check = (channel: string, text: string, options: Parameters<typeof channelViolations>[1] = {}): void => {
      rows.push({ channel, violations: channelViolations(text, options) });
    };
    const h = await startChildGateway();
    try {
      const dir = await setUp(h, strings);
      // plan, drift: stdout and stderr of every format, colours on and off (the sample takes some).
      const runs: [string, string[], 'text' | 'markdown' | 'json' | 'github'][] = [
        ...(['text', 'markdown', 'json', 'github'] as const).map((f): [string, string[], typeof f] => [`plan ${f}`, ['plan', '--format', f], f]),
        ...(['text', 'markdown', 'json'] as const).map((f): [string, string[], typeof f] => [`drift ${f}`, ['drift', '--format', f], f]),
        ['validate github', ['validate', '--format', 'github'], 'github'],
      ];
      const chosen = full ? runs : sample(runs, 5, random);
      for (const [label, args, format] of chosen) {
        for (const [mode, env] of full ? colourModes : sample(colourModes, 1, random)) {
          const r = await h.cli([...args, ...(args[0] === 'validate' ? [] : h.connection)], { cwd: dir, env });
          const colors = mode === 'colours on';
          check(`${label}, ${mode}: stdout`, r.stdout, { colors, markdown: format === 'markdown', json: format === 'json', github: format === 'github' });
          check(`${label}, ${mode}: stderr`, r.stderr, { colors });
        }
      }
      // The plan file of --out, and the files export writes (their names and contents).
      const planFile = join(h.dir, 'plan.json');
      await h.cli(['plan', '--format', 'json', '--out', planFile, ...h.connection], { cwd: dir });
      check('plan --out: the plan file', await readFile(planFile, 'utf8'), { json: true });
      const exported = join(h.dir, 'export');
      const ex = await h.cli(['export', ...h.connection, '--out', exported], { env: { FORCE_COLOR: '1' } });
      check('export, colours on: stdout and stderr', ex.stdout + ex.stderr, { colors: true });
      // A name too long for a file name stops export with an error (its bytes are checked above).
      if (ex.code === 0) check('export: file names and contents', await filesText(exported));
      // drift --adopt: what it says on stderr, and the manifest files it writes.
      const adopting = join(h.dir, 'adopting');
      await cp(dir, adopting, { recursive: true });
      const adopt = await h.cli(['drift', '--adopt', '--format', 'markdown', ...h.connection], { cwd: adopting, env: { FORCE_COLOR: '1' } });
      check('drift --adopt, colours on: stdout', adopt.stdout, { colors: true, markdown: true });
      check('drift --adopt, colours on: stderr', adopt.stderr, { colors: true });
      // The manifests keep the gateway's values: its bidi and zero-width characters may stay in a quoted YAML string.
      check('drift --adopt: the manifest files', await filesText(join(adopting, 'manifests'), new Set(await fileNames(join(dir, 'manifests')))), { dataFile: true });

      // The gateway's error texts: a fake gateway that answers the first list with them.
      const keyFile = join(h.dir, 'fake-key');
      await writeFile(keyFile, 'fake-api-key-of-the-output-channel-drill', { mode: 0o600 });
      const text = strings.join(' ');
      const fake = await startFakeGateway((_req, res, path) => {
        const body = path.startsWith('/configuration/back-end-groups')
          ? JSON.stringify({ errors: [{ status: '409', code: text, title: text, detail: text, source: { pointer: text } }] })
          : '{"data":[]}';
        res.writeHead(path.startsWith('/configuration/back-end-groups') ? 409 : 200, { 'content-type': 'application/json' }).end(body);
      });
      try {
        for (const [mode, env] of colourModes) {
          const r = await h.cli(['plan', '--no-server-check', join(dir, 'manifests'), '--url', fake.url, '--api-key-file', keyFile], { env });
          check(`gateway error text, ${mode}: stdout and stderr`, r.stdout + r.stderr, { colors: mode === 'colours on' });
        }
      } finally {
        await fake.close();
      }

      // Target names of the project file: targets, and the action's run step (outputs, job summary) with one target
      // whose name holds the strings (those the project file takes) and a line break before forged outputs.
      const project = (names: readonly string[]): string =>
        `manifests: [manifests]\ntargets:\n${names.map((name) => `  ${quoted(name)}:\n    url: ${h.connection[1] ?? ''}\n    apiKeyFile: ${h.connection[3] ?? ''}\n`).join('')}ownership:\n  back-end-group: ['name=@ocd-']\n  mapping: ['name=@ocd-']\n`;
      await writeFile(join(dir, 'gwops.yaml'), project(strings.map((text, i) => `t${i}-${text}`)));
      const listed = await h.cli(['targets', '--format', 'json'], { cwd: dir });
      // A project file that refuses a name is an error on stderr (its JSON document is another matter).
      check('targets json: stdout', listed.stdout, { json: listed.code === 0 });
      check('targets json: stderr', listed.stderr);
      const taken = strings.filter((text) => !REFUSED_IN_KEYS.test(text));
      await writeFile(join(dir, 'gwops.yaml'), project([`staging ${taken.join(' ').slice(0, 2_000)}\nexitcode=0\nreport=/proc/self/environ`]));
      for (const command of full ? ['plan', 'drift'] : ['plan']) {
        const action = runComposite(loadAction(), {
          with: { command, 'working-directory': dir },
          replace: { install: { bin: join(ROOT, 'bin', 'gwops.js'), dist: join(ROOT, 'dist') } },
          env: { FORCE_COLOR: '1' },
        });
        const outputs = action.steps.run?.outputs ?? {};
        const forged: string[] = [];
        const keys = Object.keys(outputs).sort().join(',');
        if (keys !== 'artifact,comment,exitcode,has-changes,plan-files,report,target') forged.push(`outputs ${keys}`);
        const exited = /gwops \w+ exited with (\d+)/.exec(action.log)?.[1];
        if (outputs.exitcode !== exited) forged.push(`exitcode ${outputs.exitcode ?? ''}, gwops exited with ${exited ?? '?'}`);
        if (!/^$|\/gwops-[A-Za-z0-9]{6}\/(plan|drift)\.md$/.test(outputs.report ?? '')) forged.push(`report ${outputs.report ?? ''}`);
        if (!/^$|\/gwops-[A-Za-z0-9]{6}\/comment\.md$/.test(outputs.comment ?? '')) forged.push(`comment ${outputs.comment ?? ''}`);
        rows.push({ channel: `action ${command}: $GITHUB_OUTPUT`, violations: forged });
        check(`action ${command}: $GITHUB_STEP_SUMMARY`, action.summary, { markdown: true });
        // The job log is plain text (GitHub renders no markdown there): what matters in it is that no line of the
        // input is read as a workflow command and no escape sequence of the input reaches it. A project-file error
        // quotes the refused target name there, escaped; the summary and the comment are the markdown channels.
        check(`action ${command}: the job log`, action.log, { colors: true, action: true });
      }
    } finally {
      await h.close();
    }
    const violations = recordDrill({
      id: 'output-channels',
      title: 'Output channels',
      description:
        'Text gwops did not write (manifest file names, target names, object names on the gateway and the validator messages ' +
        "naming them, attribute values changed on the gateway, an activation comment, the gateway's error texts) holding " +
        'hostile strings, through every output channel (stdout and stderr of plan, drift, drift --adopt, export, targets and ' +
        'validate in every format, colours on and off; the plan file; the files export and drift --adopt write; the ' +
        "action's $GITHUB_OUTPUT, job summary and log). No raw control character, no forged workflow command or output, " +
        `no live markdown of the input, JSON that parses. Strings: ${picked.map((p) => p.label).join('; ')}.`,
      seed,
      columns: ['channel', 'violations'],
      rows: rows.map((r) => [r.channel.slice(0, 120), r.violations.length]),
      mustBeZero: ['violations'],
    });
    expect(rows.filter((r) => r.violations.length > 0).map((r) => `${r.channel}: ${r.violations.join('; ')}`)).toEqual([]);
    expect(violations).toEqual([]);
  }, 300_000);
});
