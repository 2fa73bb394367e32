/**
 * The output contract of `--format json` (README "Output contract") for every command that
 * has it, on every failure path, as a fast-check property: for generated (command, cause)
 * pairs, with `--format json` generated before or after the other arguments and as one
 * argument or two, stdout holds exactly one JSON document of the documented error shape,
 * the exit code is the cause's, and stderr keeps the human message.
 *
 * The commands are read off the real CLI's help (each command whose `--format` offers
 * `json`), so a command added later is covered. The causes: a usage error (an unknown
 * option, an option given twice), a missing project file, an invalid project file, an
 * invalid manifest, paths without a manifest, a refused connection (a closed port), a bad
 * API key (the emulator answers 401), and an interruption (SIGHUP, SIGINT or SIGTERM sent to
 * the real process while it waits for a gateway that never answers, or for standard input).
 * A seeded sample runs in `npm test`; every pair (each interruption with every signal) runs
 * under GWOPS_DRILLS=full.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { silentGateway } from '../support/silent-gateway.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandNames, programHelp } from '../../tools/docs/cli-reference.js';
import { SIGNAL_EXIT } from '../../src/core/exit-codes.js';
import type { InterruptSignal } from '../../src/core/interrupts.js';
import { INTERRUPT_SIGNALS } from '../../src/core/interrupts.js';
import { untilStalled } from '../support/bounded-process.js';
import { drillMode, drillSeed } from '../drills/record.js';
import type { CliResult } from './harness.js';
import { useHarness } from './harness.js';
import { startGwops } from './spawn.js';

const GROUP = 'apiVersion: gwops/v1\nkind: back-end-group\nname: jf-group\nattributes:\n  backendHosts:\n    - { hostName: jf.internal, port: 8080 }\n';
const PROJECT = "manifests: [manifests]\nownership:\n  back-end-group: ['name=@jf-']\n";

/** Why a run fails. */
type Cause =
  | 'unknown-option'
  | 'option-twice'
  | 'missing-project-file'
  | 'invalid-project-file'
  | 'invalid-manifest'
  | 'no-manifest'
  | 'connection-refused'
  | 'bad-api-key'
  | 'interrupted';

const CAUSES: readonly Cause[] = [
  'unknown-option',
  'option-twice',
  'missing-project-file',
  'invalid-project-file',
  'invalid-manifest',
  'no-manifest',
  'connection-refused',
  'bad-api-key',
  'interrupted',
];

/** How many runs at once (the real processes of interruptions share the machine's cores). */
const BATCH = 10;

/** Commands that read manifests (their paths are arguments). */
const READS_MANIFESTS = new Set(['validate', 'plan', 'apply', 'drift']);
/** Commands that refuse paths holding no manifest document. */
const REFUSES_NO_MANIFEST = new Set(['validate', 'plan', 'apply']);

/** One generated failing run. */
interface Case {
  readonly command: string;
  readonly cause: Cause;
  /** `--format json` first (right after the command) or last. */
  readonly formatFirst: boolean;
  /** `--format=json` (one argument) or `--format json`. */
  readonly joined: boolean;
  /** For `interrupted`. */
  readonly signal: InterruptSignal;
}

/** The files every case may point at, made once. */
interface Fixture {
  readonly dir: string;
  /** A project (ownership scope, manifests/) with one valid manifest. */
  readonly project: string;
  readonly manifests: string;
  readonly invalidManifests: string;
  readonly empty: string;
  readonly invalidProject: string;
  readonly missingProject: string;
  readonly wrongKey: string;
  readonly closedUrl: string;
}

/** A port that was just free: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}


/** True when `cause` can make `command` fail (a command without a gateway is never refused a connection). */
function applies(command: string, cause: Cause, gatewayCommands: ReadonlySet<string>): boolean {
  switch (cause) {
    case 'unknown-option':
    case 'option-twice':
    case 'missing-project-file':
    case 'invalid-project-file':
      return true;
    case 'invalid-manifest':
      return READS_MANIFESTS.has(command);
    case 'no-manifest':
      return REFUSES_NO_MANIFEST.has(command);
    case 'connection-refused':
    case 'bad-api-key':
      return gatewayCommands.has(command);
    case 'interrupted':
      // Only a command that waits can be interrupted: for a gateway, or for standard input.
      return gatewayCommands.has(command) || READS_MANIFESTS.has(command);
  }
}

/** The arguments of a command that would succeed but for the cause: its paths, reference, output directory. */
function baseArgs(command: string, f: Fixture, manifests: string): string[] {
  switch (command) {
    case 'plan':
    case 'drift':
    case 'validate':
      return [manifests];
    case 'apply':
      return [manifests, '--yes'];
    case 'rollback':
      return ['abcd', '--yes'];
    case 'export':
      return ['--out', join(f.dir, 'export-out')];
    default:
      return [];
  }
}

/** The one JSON document on stdout (JSON.parse refuses a second one, or none). */
function oneDocument(stdout: string): Record<string, unknown> {
  expect(stdout.trim(), 'stdout holds a document').not.toBe('');
  const parsed: unknown = JSON.parse(stdout);
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  return parsed as Record<string, unknown>;
}

interface DiagnosticJson {
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

/**
 * The messages stderr must show too, of a failure document in the documented shape:
 * `formatVersion` first; the document of `validate` with `valid: false` and at least one
 * error (the message of a `run-failed` one: the run's error), or a command's own document
 * whose `outcome` is `failed` (its `error`).
 */
function errorMessages(document: Record<string, unknown>): string[] {
  expect(Object.keys(document)[0]).toBe('formatVersion');
  expect(typeof document.formatVersion).toBe('string');
  const outcome = document.outcome as { result?: unknown; error?: unknown } | undefined;
  if (outcome !== undefined) {
    expect(outcome.result).toBe('failed');
    return [String(outcome.error)];
  }
  expect(document.valid).toBe(false);
  const errors = (document.diagnostics as DiagnosticJson[]).filter((d) => d.severity === 'error');
  expect(errors.length).toBeGreaterThan(0);
  expect(document.errorCount).toBe(errors.length);
  return errors.filter((d) => d.code === 'run-failed').map((d) => d.message);
}

describe('--format json: one JSON document of the error shape on every failure path of every command', () => {
  const t = useHarness();
  let f: Fixture;
  let jsonCommands: string[] = [];
  let gatewayCommands = new Set<string>();

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwops-json-failures-'));
    const project = join(dir, 'project');
    const manifests = join(project, 'manifests');
    const invalidManifests = join(dir, 'invalid');
    const empty = join(dir, 'empty');
    const invalidProject = join(dir, 'invalid-project', 'gwops.yaml');
    for (const d of [manifests, invalidManifests, empty, join(dir, 'invalid-project')]) await mkdir(d, { recursive: true });
    await writeFile(join(project, 'gwops.yaml'), PROJECT);
    await writeFile(join(manifests, 'group.yaml'), GROUP);
    await writeFile(join(invalidManifests, 'bad.yaml'), 'apiVersion: gwops/v1\nkind: back-end-group\nname: jf-bad\nattributes: { nope: 1 }\n');
    await writeFile(invalidProject, 'targets: 5\nbogus: 1\n');
    const wrongKey = join(dir, 'wrong-key');
    await writeFile(wrongKey, 'not-the-key\n', { mode: 0o600 });
    f = {
      dir,
      project: join(project, 'gwops.yaml'),
      manifests,
      invalidManifests,
      empty,
      invalidProject,
      missingProject: join(dir, 'nowhere', 'gwops.yaml'),
      wrongKey,
      closedUrl: `https://127.0.0.1:${await closedPort()}/airlock/rest`,
    };
    // From the real CLI's help: the commands whose --format offers json, and those with the connection options.
    for (const name of commandNames(await programHelp([]))) {
      const help = await programHelp([name]);
      if (/--format <format>[\s\S]*?choices: [^)]*"json"/.test(help.split('\nExamples:')[0] ?? '')) jsonCommands.push(name);
      if (help.includes('--api-key-file')) gatewayCommands.add(name);
    }
    jsonCommands = jsonCommands.sort();
    gatewayCommands = new Set(gatewayCommands);
  });
  afterAll(async () => {
    await rm(f.dir, { recursive: true, force: true });
  });

  /** The arguments and expected exit code of a case run in-process against the emulator. */
  function argsOf(c: Case): string[] {
    const h = t.h;
    const connection = gatewayCommands.has(c.command) ? [...h.connection] : [];
    const config = ['--config', f.project];
    switch (c.cause) {
      case 'unknown-option':
        return [...baseArgs(c.command, f, f.manifests), ...config, ...connection, '--no-such-option'];
      case 'option-twice':
        return [...baseArgs(c.command, f, f.manifests), '--config', f.project, ...connection, '--config', f.project];
      case 'missing-project-file':
        return [...baseArgs(c.command, f, f.manifests), '--config', f.missingProject, ...connection];
      case 'invalid-project-file':
        return [...baseArgs(c.command, f, f.manifests), '--config', f.invalidProject, ...connection];
      case 'invalid-manifest':
        return [...baseArgs(c.command, f, f.invalidManifests), ...config, ...connection];
      case 'no-manifest':
        return [...baseArgs(c.command, f, f.empty), ...config, ...connection];
      case 'connection-refused':
        return [...baseArgs(c.command, f, f.manifests), ...config, '--url', f.closedUrl, '--api-key-file', f.wrongKey];
      case 'bad-api-key': {
        const [, url = '', , , , ca = ''] = h.connection;
        return [...baseArgs(c.command, f, f.manifests), ...config, '--url', url, '--api-key-file', f.wrongKey, '--ca-file', ca];
      }
      case 'interrupted':
        throw new Error('interrupted runs are real processes (interruptedRun)');
    }
  }

  /** `--format json` placed as the case says. */
  function withFormat(c: Case, args: readonly string[]): string[] {
    const format = c.joined ? ['--format=json'] : ['--format', 'json'];
    return c.formatFirst ? [c.command, ...format, ...args] : [c.command, ...args, ...format];
  }

  /** A real gwops process interrupted by `c.signal` while it waits: for a gateway that never answers, or for standard input. */
  async function interruptedRun(c: Case): Promise<CliResult> {
    if (!gatewayCommands.has(c.command)) {
      const gwops = startGwops(withFormat(c, ['-', '--config', f.project]), {}, f.dir);
      expect(await untilStalled(gwops.child.pid ?? -1)).toBe('stalled');
      gwops.child.kill(c.signal);
      const code = await gwops.exited;
      return { code, stdout: gwops.stdout, stderr: gwops.stderr };
    }
    const gateway = await silentGateway();
    try {
      const gwops = startGwops(withFormat(c, [...baseArgs(c.command, f, f.manifests), '--config', f.project, '--url', gateway.url, '--api-key-file', f.wrongKey]), {}, f.dir);
      await gateway.connected;
      gwops.child.kill(c.signal);
      const code = await gwops.exited;
      return { code, stdout: gwops.stdout, stderr: gwops.stderr };
    } finally {
      await gateway.close();
    }
  }

  async function run(c: Case): Promise<{ c: Case; r: CliResult; expected: number }> {
    if (c.cause === 'interrupted') return { c, r: await interruptedRun(c), expected: SIGNAL_EXIT[c.signal] };
    return { c, r: await t.h.cli(withFormat(c, argsOf(c)), { cwd: f.dir }), expected: 1 };
  }

  function check({ c, r, expected }: { c: Case; r: CliResult; expected: number }): void {
    const label = `gwops ${c.command} (${c.cause}${c.cause === 'interrupted' ? ` by ${c.signal}` : ''})`;
    expect(r.code, `${label}: ${r.stderr}`).toBe(expected);
    const messages = errorMessages(oneDocument(r.stdout));
    // The human message stays on stderr: a one-line error, and the run's error as the document words it.
    // (The located problems that validate finds are its report, the document itself: the rest say them on stderr.)
    const reported = c.command === 'validate' && messages.length === 0;
    expect(reported || /^(Error: |error: |interrupted by SIG)/m.test(r.stderr), `${label}: stderr ${JSON.stringify(r.stderr)}`).toBe(true);
    for (const message of messages) expect(r.stderr, label).toContain(message.split('\n')[0] ?? '');
  }

  it('holds for generated commands × failure causes', { timeout: 240_000 }, async () => {
    expect(jsonCommands).toEqual(expect.arrayContaining(['apply', 'drift', 'export', 'history', 'plan', 'rollback', 'targets', 'validate']));
    const causesOf = (command: string): Cause[] => CAUSES.filter((cause) => applies(command, cause, gatewayCommands));
    const caseOf = (command: fc.Arbitrary<string>, cause: fc.Arbitrary<Cause>, signal: fc.Arbitrary<InterruptSignal> = fc.constantFrom(...INTERRUPT_SIGNALS)): fc.Arbitrary<Case> =>
      fc.record({ command, cause, formatFirst: fc.boolean(), joined: fc.boolean(), signal });
    // npm test: each cause with a generated command, and each command with a generated cause.
    // GWOPS_DRILLS=full: every pair, each interruption with every signal.
    const cases =
      drillMode() === 'full'
        ? fc.tuple(
            ...jsonCommands.flatMap((command) =>
              causesOf(command).flatMap((cause) =>
                (cause === 'interrupted' ? INTERRUPT_SIGNALS : (['SIGINT'] as const)).map((signal) => caseOf(fc.constant(command), fc.constant(cause), fc.constant(signal))),
              ),
            ),
          )
        : fc.tuple(
            ...CAUSES.map((cause) => caseOf(fc.constantFrom(...jsonCommands.filter((command) => causesOf(command).includes(cause))), fc.constant(cause))),
            ...jsonCommands.map((command) => caseOf(fc.constant(command), fc.constantFrom(...causesOf(command)))),
          );
    await fc.assert(
      fc.asyncProperty(cases, async (generated) => {
        // Concurrently, a few at a time: a refused connection is retried for a few seconds, and the runs wait on nothing else.
        for (let i = 0; i < generated.length; i += BATCH) for (const one of await Promise.all(generated.slice(i, i + BATCH).map(run))) check(one);
      }),
      { seed: drillSeed(43_008), numRuns: 1, endOnFailure: true },
    );
  });
});
