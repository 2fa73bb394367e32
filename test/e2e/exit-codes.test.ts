/**
 * The exit codes each command declares (its `--help`, src/cli/help.ts) are exactly the ones
 * it can return: for every command the program lists, a run reaches each code it declares,
 * and no scenario reaches one it does not. The other half, that no run anywhere returns an
 * undeclared code, is checked by the end-to-end harness after every file
 * (test/e2e/harness.ts `useHarness`).
 *
 * Runs go in-process against the emulator, except what only a real process shows: a signal
 * (SIGHUP, SIGINT, SIGTERM) while the command waits for a gateway that never answers, or for
 * standard input, and the emulator stopped by a signal. npm test sends one of the three
 * signals to each of three waiting commands drawn with the seed; GWOPS_DRILLS=full sends
 * every signal to every waiting command. The demo's 0 (the whole story) is reached by
 * test/e2e/demo.test.ts.
 */
import { silentGateway } from '../support/silent-gateway.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, SIGNAL_EXIT } from '../../src/core/exit-codes.js';
import type { InterruptSignal } from '../../src/core/interrupts.js';
import { INTERRUPT_SIGNALS } from '../../src/core/interrupts.js';
import { untilStalled } from '../support/bounded-process.js';
import { declaredExitCodes, helpCommands } from '../support/exit-codes.js';
import { drillMode, drillSeed } from '../drills/record.js';
import { prng, sample } from '../drills/support.js';
import { createdId, useHarness } from './harness.js';
import { startGwops } from './spawn.js';

const group = (name: string): string => `apiVersion: gwops/v1\nkind: back-end-group\nname: ${name}\nattributes:\n  backendHosts:\n    - { hostName: ${name}.internal, port: 8080 }\n`;
/** A mapping without a back-end group: the gateway's validator refuses it. */
const ORPHAN = 'apiVersion: gwops/v1\nkind: mapping\nname: xc-orphan\nattributes:\n  entryPath: { value: /xc-orphan/ }\n';
const PROJECT = "ownership:\n  back-end-group: ['name=@xc-']\n  mapping: ['name=@xc-']\n";


/** One way to make a command exit with `code`; `run` answers the code it got. */
interface Scenario {
  readonly command: string;
  readonly code: number;
  readonly what: string;
  readonly run: () => Promise<number>;
}

describe('every exit code a command declares is reachable, and only those', () => {
  const t = useHarness();
  let dir: string;
  let project: string;
  let manifests: string;
  let keyFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gwops-exit-codes-'));
    project = join(dir, 'gwops.yaml');
    manifests = join(dir, 'manifests');
    await mkdir(manifests);
    await writeFile(project, PROJECT);
    await writeFile(join(manifests, 'group.yaml'), group('xc-applied'));
    keyFile = t.h.connection[3] ?? '';
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const folder = async (name: string, files: Record<string, string>): Promise<string> => {
    const path = join(dir, name);
    await mkdir(path, { recursive: true });
    for (const [file, text] of Object.entries(files)) await writeFile(join(path, file), text);
    return path;
  };
  const cli = async (args: readonly string[]): Promise<number> => (await t.h.cli(args, { cwd: dir })).code;

  /** `gwops <args>` as a real process, sent `signal` once it waits (for the gateway `url` is given, else for standard input). */
  async function interrupted(args: (url: string) => readonly string[], signal: InterruptSignal, waits: 'gateway' | 'stdin' | 'output'): Promise<number> {
    if (waits === 'stdin') {
      const gwops = startGwops(args(''), {}, dir);
      expect(await untilStalled(gwops.child.pid ?? -1)).toBe('stalled');
      gwops.child.kill(signal);
      return gwops.exited;
    }
    if (waits === 'output') {
      const gwops = startGwops(args(''), { NO_COLOR: '1' }, dir);
      await gwops.waitFor('gwops demo');
      gwops.child.kill(signal);
      return gwops.exited;
    }
    const gateway = await silentGateway();
    try {
      const gwops = startGwops(args(gateway.url), {}, dir);
      await gateway.connected;
      gwops.child.kill(signal);
      return await gwops.exited;
    } finally {
      await gateway.close();
    }
  }

  /**
   * A configuration that the gateway's validator refuses once brought back within the
   * ownership scope: a regular-expression mapping of the project at entry path priority 7;
   * since, it moved to 8 and another team's mapping took 7 (DUPLICATE_REGEX_PRIORITY).
   */
  async function refusedRollback(): Promise<number> {
    const entry = (path: string, priority: number): Record<string, unknown> => ({ value: path, regexFormatEnforced: true, priority });
    const ids = await t.h.raw(async (s) => {
      const groupId = await createdId(s, 'back-end-groups', 'back-end-group', { name: 'rb-group', backendHosts: [{ hostName: 'rb.internal', port: 8080 }] });
      const mappingId = await createdId(s, 'mappings', 'mapping', { name: 'xc-rb-mapping', entryPath: entry('^/xc-rb/', 7) });
      await s.link('mappings', mappingId, 'back-end-groups', [{ type: 'back-end-group', id: groupId }]);
      return { groupId, mappingId };
    }, 'xc: priority 7');
    const before = (t.h.emulator.activeSnapshot() as { id: string }).id;
    await t.h.raw(async (s) => {
      await s.update('mappings', ids.mappingId, { type: 'mapping', attributes: { entryPath: entry('^/xc-rb/', 8) } });
      const other = await createdId(s, 'mappings', 'mapping', { name: 'other-team-mapping', entryPath: entry('^/other/', 7) });
      await s.link('mappings', other, 'back-end-groups', [{ type: 'back-end-group', id: ids.groupId }]);
    }, 'another team: priority 7');
    const scope = await folder('rollback-scope', { 'gwops.yaml': "ownership:\n  mapping: ['name=@xc-rb-']\n" });
    return cli(['rollback', before, '--yes', '--config', join(scope, 'gwops.yaml'), ...t.h.connection]);
  }

  /** Every scenario: for each command, one per code it should reach. */
  function scenarios(signals: (command: string) => readonly InterruptSignal[]): Scenario[] {
    const usage = (command: string, extra: readonly string[] = []): Scenario => ({ command, code: EXIT.error, what: 'an unknown option', run: () => cli([command, ...extra, '--no-such-option']) });
    const signalled = (command: string, args: (url: string) => readonly string[], waits: 'gateway' | 'stdin' | 'output'): Scenario[] =>
      signals(command).map((signal) => ({ command, code: SIGNAL_EXIT[signal], what: signal, run: () => interrupted(args, signal, waits) }));
    const connection = (url: string): string[] => ['--url', url, '--api-key-file', keyFile];
    return [
      { command: 'init', code: EXIT.ok, what: 'a new directory', run: () => cli(['init', join(dir, 'init-new')]) },
      usage('init'),
      ...signalled('init', (url) => ['init', join(dir, `init-gw-${Math.random().toString(36).slice(2)}`), '--from-gateway', ...connection(url)], 'gateway'),

      { command: 'validate', code: EXIT.ok, what: 'valid manifests', run: () => cli(['validate', manifests]) },
      { command: 'validate', code: EXIT.error, what: 'an invalid manifest', run: async () => cli(['validate', await folder('invalid', { 'bad.yaml': ORPHAN.replace('attributes:', 'attributes:\n  nope: 1') })]) },
      ...signalled('validate', () => ['validate', '-'], 'stdin'),

      { command: 'schema', code: EXIT.ok, what: 'a kind', run: () => cli(['schema', 'mapping']) },
      { command: 'schema', code: EXIT.error, what: 'no such kind', run: () => cli(['schema', 'no-such-kind']) },

      { command: 'plan', code: EXIT.ok, what: 'changes without --detailed-exitcode', run: async () => cli(['plan', await folder('plan-changes', { 'g.yaml': group('xc-planned') }), '--no-server-check', ...t.h.connection]) },
      usage('plan'),
      { command: 'plan', code: EXIT.changes, what: '--detailed-exitcode', run: async () => cli(['plan', await folder('plan-changes', { 'g.yaml': group('xc-planned') }), '--detailed-exitcode', '--no-server-check', ...t.h.connection]) },
      { command: 'plan', code: EXIT.validatorErrors, what: "the validator's errors", run: async () => cli(['plan', await folder('orphan', { 'm.yaml': ORPHAN }), ...t.h.connection]) },
      ...signalled('plan', (url) => ['plan', manifests, ...connection(url)], 'gateway'),

      { command: 'apply', code: EXIT.ok, what: 'activated', run: () => cli(['apply', manifests, '--yes', ...t.h.connection]) },
      usage('apply'),
      { command: 'apply', code: EXIT.validatorErrors, what: "the validator's errors", run: async () => cli(['apply', await folder('orphan', { 'm.yaml': ORPHAN }), '--yes', ...t.h.connection]) },
      ...signalled('apply', (url) => ['apply', manifests, '--yes', ...connection(url)], 'gateway'),

      { command: 'drift', code: EXIT.ok, what: 'no drift after the apply', run: async () => (await cli(['apply', manifests, '--yes', ...t.h.connection])) + (await cli(['drift', manifests, ...t.h.connection])) },
      usage('drift'),
      { command: 'drift', code: EXIT.changes, what: 'a group not on the gateway', run: async () => cli(['drift', await folder('drifted', { 'g.yaml': group('xc-not-applied') }), ...t.h.connection]) },
      ...signalled('drift', (url) => ['drift', manifests, ...connection(url)], 'gateway'),

      { command: 'graph', code: EXIT.ok, what: 'valid manifests', run: () => cli(['graph', manifests]) },
      usage('graph'),
      ...signalled('graph', () => ['graph', '-'], 'stdin'),

      { command: 'history', code: EXIT.ok, what: 'the configurations', run: () => cli(['history', ...t.h.connection]) },
      usage('history'),
      ...signalled('history', (url) => ['history', ...connection(url)], 'gateway'),

      { command: 'doctor', code: EXIT.ok, what: 'a gateway that fits', run: () => cli(['doctor', ...t.h.connection]) },
      usage('doctor'),
      ...signalled('doctor', (url) => ['doctor', ...connection(url)], 'gateway'),

      {
        command: 'rollback',
        code: EXIT.ok,
        what: 'the active configuration',
        run: () => cli(['rollback', (t.h.emulator.activeSnapshot() as { id: string }).id, '--yes', '--config', project, ...t.h.connection]),
      },
      usage('rollback', ['1']),
      { command: 'rollback', code: EXIT.validatorErrors, what: "the validator's errors", run: refusedRollback },
      ...signalled('rollback', (url) => ['rollback', '1', '--yes', '--config', project, ...connection(url)], 'gateway'),

      { command: 'export', code: EXIT.ok, what: 'into a new directory', run: () => cli(['export', '--out', join(dir, 'exported'), '--quiet', ...t.h.connection]) },
      usage('export'),
      ...signalled('export', (url) => ['export', '--out', join(dir, `export-${Math.random().toString(36).slice(2)}`), ...connection(url)], 'gateway'),

      { command: 'targets', code: EXIT.ok, what: 'a project file', run: () => cli(['targets', '--config', project]) },
      { command: 'targets', code: EXIT.error, what: 'no project file', run: () => cli(['targets', '--config', join(dir, 'nowhere.yaml')]) },

      {
        command: 'emulator',
        code: EXIT.ok,
        what: 'stopped by SIGTERM',
        run: async () => {
          const files = ['--api-key-file', join(dir, 'em-key'), '--read-only-api-key-file', join(dir, 'em-ro-key'), '--cert-file', join(dir, 'em-cert.pem')];
          const emulator = startGwops(['emulator', '--port', '0', '--no-tls', ...files], {}, dir);
          await emulator.waitFor('Press Ctrl+C to stop.');
          emulator.child.kill('SIGTERM');
          return emulator.exited;
        },
      },
      usage('emulator'),

      usage('demo'),
      ...signalled('demo', () => ['demo'], 'output'),

      { command: 'version', code: EXIT.ok, what: 'the version', run: () => cli(['version']) },
      usage('version'),
    ];
  }

  it('reaches each code of each command, and the codes reached are the ones its --help lists', { timeout: 300_000 }, async () => {
    const full = drillMode() === 'full';
    // npm test: three waiting commands (drawn with the seed), each sent one signal; the full run sends every signal to every one.
    const random = prng(drillSeed(43_011));
    const waiting = ['init', 'validate', 'plan', 'apply', 'drift', 'graph', 'history', 'doctor', 'rollback', 'export', 'demo'];
    const sampled = new Map(sample(waiting, 3, random).map((command, i) => [command, INTERRUPT_SIGNALS[i] ?? 'SIGINT']));
    const signals = (command: string): readonly InterruptSignal[] => {
      if (full) return INTERRUPT_SIGNALS;
      const signal = sampled.get(command);
      return signal === undefined ? [] : [signal];
    };
    const all = scenarios(signals);
    // Reached elsewhere (a whole demo takes long): test/e2e/demo.test.ts ends with 0.
    const elsewhere = [{ command: 'demo', code: EXIT.ok }];
    const got: string[] = [];
    const wanted: string[] = [];
    // In-process runs one after the other (they share the emulator's state); the real processes a few at a time.
    for (const s of all.filter((x) => !INTERRUPT_SIGNALS.some((signal) => x.what === signal))) {
      wanted.push(`${s.command} ${s.what}: ${s.code}`);
      got.push(`${s.command} ${s.what}: ${await s.run()}`);
    }
    const processes = all.filter((x) => INTERRUPT_SIGNALS.some((signal) => x.what === signal));
    for (let i = 0; i < processes.length; i += 6) {
      const batch = processes.slice(i, i + 6);
      wanted.push(...batch.map((s) => `${s.command} ${s.what}: ${s.code}`));
      got.push(...(await Promise.all(batch.map(async (s) => `${s.command} ${s.what}: ${await s.run()}`))));
    }
    expect(got).toEqual(wanted);

    // The codes reached per command are exactly the declared ones. In npm test a command that
    // waits stands for the signal codes as a class (each 128 + its number, src/core/interrupts.ts),
    // reached for the sampled ones: every one of them declares all three, the others none.
    const signalCodes: number[] = Object.values(SIGNAL_EXIT);
    for (const command of await helpCommands()) {
      const reached = new Set([...all, ...elsewhere].filter((s) => s.command === command).map((s) => s.code));
      if (!full && waiting.includes(command)) for (const code of signalCodes) reached.add(code);
      expect([...reached].sort((a, b) => a - b), command).toEqual(await declaredExitCodes(command));
    }
  });
});
