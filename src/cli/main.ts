import { createRequire } from 'node:module';
import { Command } from 'commander';
import { EXIT_CODES_HELP, debugEnabled, exitCodeFor, failureDocument, jsonRequested } from './exit.js';
import { EXIT } from '../core/exit-codes.js';
import type { CliIO, CommandModule } from './io.js';
import { processIO, redactingIO } from './io.js';
import { registerKnownSecrets } from './known-secrets.js';
import { SecretRedactor } from '../core/secrets.js';
import { registerEmulator } from './commands/emulator/command.js';
import { registerValidate } from './commands/validate/command.js';
import { registerSchema } from './commands/schema/command.js';
import { registerReconcile } from './commands/reconcile/command.js';
import { demoCommand } from './commands/demo/command.js';
import { registerTargets } from './commands/targets/command.js';
import { registerHistory } from './commands/history/command.js';
import { registerDoctor } from './commands/doctor/command.js';
import { registerRollback } from './commands/rollback/command.js';
import { registerExport } from './commands/export/command.js';
import { registerGraph } from './commands/graph/command.js';
import { registerInit } from './commands/init/command.js';
import { UsageError } from '../core/errors.js';
import type { CommandHelp } from './help.js';
import { helpText } from './help.js';

/** The version of gwops, as `gwops --version` and `gwops version` print it: package.json's, which a release sets (tools/release/release.ts). */
export const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** True when `--no-color` is among the arguments before `--` (a program option, read before parsing as `--debug` is). */
function noColorFlag(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--no-color');
}

/**
 * After a usage error (unknown command or option, missing argument), commander prints the
 * error and, when a name is close, `(Did you mean …?)`; then one line naming the help of
 * the command at fault, never the help itself. Applied to every command, nested ones
 * included; each throws instead of exiting.
 */
function pointToHelp(command: Command, words: readonly string[] = []): void {
  const path = [...words, command.name()];
  command.showSuggestionAfterError(true).showHelpAfterError(`Run '${path.join(' ')} --help' for usage.`).exitOverride();
  for (const sub of command.commands) pointToHelp(sub, path);
}

/** The examples and exit codes of `gwops version --help`. */
const VERSION_HELP: CommandHelp = {
  examples: [{ run: 'gwops version', does: 'the version of gwops, e.g. 0.1.0' }],
  exitCodes: [
    [EXIT.ok, 'the version was printed'],
    [EXIT.error, 'a usage error'],
  ],
};

const COMMANDS: readonly CommandModule[] = [
  registerInit,
  registerValidate,
  registerSchema,
  registerReconcile,
  registerGraph,
  registerHistory,
  registerRollback,
  registerExport,
  registerTargets,
  registerDoctor,
  registerEmulator,
  demoCommand(main),
];

/**
 * Runs the CLI. Returns the process exit code instead of exiting, so tests can call it.
 *
 * With `--format json` (src/cli/exit.ts `jsonRequested`) stdout holds exactly one JSON
 * document on every path: a command writes its own; when a run fails before its command
 * wrote anything to stdout (a usage error, a missing project file, the gateway unreachable,
 * an interruption), the failure document (src/cli/exit.ts `failureDocument`) is written
 * here, the one place for every command, while stderr keeps the human message.
 * @param argv full argv as in `process.argv` (node, script, args...)
 * @param onInterrupt given the function that writes the failure document of an
 *   interruption with no REST session open (`message`: what stderr says), for the signal
 *   hub's fallback (src/cli/process.ts), which ends the process itself
 */
export async function main(argv: readonly string[], given: CliIO = processIO(), onInterrupt?: (write: (message: string) => void) => void): Promise<number> {
  // One secret registry per run; everything written to stdout or stderr goes through it.
  const secrets = given.secrets ?? new SecretRedactor();
  const redacted = redactingIO({ ...given, noColor: given.noColor === true || noColorFlag(argv) }, secrets);
  // Whether anything reached stdout: then a command wrote its document (or its data) already.
  let wrote = false;
  const io: CliIO = {
    ...redacted,
    stdout: {
      write: (text: string) => {
        if (String(text).length > 0) wrote = true;
        return redacted.stdout.write(text);
      },
    },
  };
  let exitCode: number = EXIT.ok;
  const program = new Command('gwops')
    .description('Declarative GitOps for the gateway configuration REST API: validate, plan, apply, drift')
    .version(VERSION, '-V, --version', 'output the version number (also: gwops version)')
    .option('--debug', 'print stack traces of unexpected errors (also GWOPS_DEBUG=1)')
    .option('--no-color', 'no ANSI colours (also NO_COLOR=1; FORCE_COLOR=1 forces them when piped)')
    .addHelpText('after', EXIT_CODES_HELP)
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    })
    .exitOverride();
  // The first thing every command does: register the keys it could print before it knows them.
  program.hook('preAction', (_program, command) => {
    const flags = command.opts<{ config?: unknown; apiKeyFile?: unknown }>();
    registerKnownSecrets(secrets, {
      cwd: io.cwd,
      env: io.env,
      configFile: typeof flags.config === 'string' ? flags.config : undefined,
      apiKeyFile: typeof flags.apiKeyFile === 'string' ? flags.apiKeyFile : undefined,
    });
  });
  for (const register of COMMANDS) register(program, io, (code) => (exitCode = code));
  program
    .command('version')
    .addHelpText('after', helpText(VERSION_HELP))
    .description('Print the version of gwops (as --version does)')
    .action(() => void io.stdout.write(`${VERSION}\n`));
  pointToHelp(program);
  refuseRepeatedOptions(program);
  const json = jsonRequested(program, argv);
  const failed = (error: unknown): void => {
    if (json && !wrote) io.stdout.write(failureDocument(error));
  };
  onInterrupt?.(failed);
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    const code = exitCodeFor(error, io, debugEnabled(argv, io.env));
    if (code !== EXIT.ok) failed(error);
    return code;
  }
  return exitCode;
}

/**
 * Makes every option that takes one value (not a repeatable one such as `--kind`, whose
 * own parser collects the values) refuse to be given twice: `--target a --target b` would
 * otherwise run against `b` silently. Values are not repeated in the message (a URL may
 * hold credentials).
 * @throws UsageError (while parsing) naming the option given twice
 */
function refuseRepeatedOptions(command: Command): void {
  for (const option of command.options) {
    const takesValue = option.required || option.optional;
    // A parser of its own (other than the check of `choices`) decides about repetition itself.
    if (!takesValue || option.variadic || (option.parseArg !== undefined && option.argChoices === undefined)) continue;
    const parse = option.parseArg;
    let given = false;
    option.argParser((value: string, previous: unknown) => {
      if (given) throw new UsageError(`${option.long ?? option.short ?? option.flags} was given twice: give it once (a command runs against one value)`);
      given = true;
      return parse ? parse(value, previous) : value;
    });
  }
  for (const sub of command.commands) refuseRepeatedOptions(sub);
}
