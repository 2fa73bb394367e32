import { CommanderError } from 'commander';
import type { Command } from 'commander';
import type { Diagnostic } from '../core/diagnostics.js';
import { objectDiagnostic } from '../core/diagnostics.js';
import { formatDiagnostics } from '../core/diagnostics-format.js';
import { messageText } from '../core/display.js';
import { GwopsError, isDiagnosticsError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import type { CliIO } from './io.js';

const code = (value: number): string => String(value).padEnd(5);
const signals = `${EXIT.sighup}/${EXIT.sigint}/${EXIT.sigterm}`;

export const EXIT_CODES_HELP = `
Exit codes:
  ${code(EXIT.ok)}success, no changes
  ${code(EXIT.error)}error (invalid input, connection or API failure, apply cancelled or not approved)
  ${code(EXIT.changes)}changes present (plan --detailed-exitcode, drift)
  ${code(EXIT.validatorErrors)}the gateway's validator found errors (nothing activated)
  ${code(EXIT.sighup)}interrupted by SIGHUP (a closed terminal)
  ${code(EXIT.sigint)}interrupted by SIGINT (Ctrl+C)
  ${code(EXIT.sigterm)}interrupted by SIGTERM
       On ${signals} the REST session is terminated; the message says whether an
       activation already sent completed, or that its outcome is unknown.

Environment: GWOPS_DEBUG=1 (or --debug) prints stack traces of unexpected errors;
NO_COLOR=1 (or --no-color) turns colours off, FORCE_COLOR=1 turns them on when piped.`;

/** True when stack traces are wanted: `--debug` on the command line or `GWOPS_DEBUG=1`. */
export function debugEnabled(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  const flag = env.GWOPS_DEBUG;
  return argv.includes('--debug') || (flag !== undefined && flag !== '' && flag !== '0' && flag !== 'false');
}

/**
 * Maps any thrown value to an exit code and prints it on stderr in one line: the single
 * place where errors become exit codes. A stack trace is printed only when `debug`.
 */
export function exitCodeFor(error: unknown, io: CliIO, debug = false): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === EXIT.ok) {
      return EXIT.ok;
    }
    return EXIT.error;
  }
  if (error instanceof GwopsError) {
    io.stderr.write(`Error: ${messageText(error.message)}\n`);
    if (debug && error.stack) io.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (debug) {
    io.stderr.write(`Internal error: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
  } else {
    io.stderr.write(`Internal error: ${messageText(message.split('\n')[0] ?? '')} (run with --debug or GWOPS_DEBUG=1 for the stack trace)\n`);
  }
  return EXIT.error;
}

/**
 * The one-line message of a failure: commander's usage errors without their `error: `
 * prefix, an unexpected error's first line.
 */
function failureMessage(error: unknown): string {
  if (error instanceof CommanderError) return error.message.replace(/^error: /, '');
  if (error instanceof GwopsError) return error.message;
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/**
 * The run's error as a diagnostic (code `run-failed`, its one-line message) for the one
 * JSON document of a failed run: an error that carries no located diagnostics of its own
 * (a usage error, the gateway unreachable, a refused read, an interruption).
 */
export function runFailure(error: unknown): Diagnostic {
  return objectDiagnostic({ code: 'run-failed', message: failureMessage(error) });
}

/**
 * The one JSON document of a failed run that wrote nothing to stdout (README "Output
 * contract"): the document of `gwops validate --format json` with the diagnostics the error
 * carries, or with the error as its one error `run-failed`; `valid` is false.
 */
export function failureDocument(error: unknown): string {
  const carried = isDiagnosticsError(error) ? error.diagnostics : [];
  const diagnostics = carried.some((d) => d.severity === 'error') ? carried : [...carried, runFailure(error)];
  return formatDiagnostics(diagnostics, 'json');
}

/**
 * True when `argv` runs a command of `program` that has `--format json` and asks for it
 * (`--format json` or `--format=json` before any `--`), whether or not the parse got as far
 * as the option: then stdout gets one JSON document on every path, a usage error included.
 * The command is the first argument that is not an option (the program's own options take
 * no value).
 */
export function jsonRequested(program: Command, argv: readonly string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  const given = end === -1 ? args : args.slice(0, end);
  const name = given.find((a) => !a.startsWith('-'));
  const command = name === undefined ? undefined : program.commands.find((c) => c.name() === name || c.aliases().includes(name));
  const format = command?.options.find((o) => o.long === '--format');
  if (format?.argChoices?.includes('json') !== true) return false;
  return given.some((arg, i) => arg === '--format=json' || (arg === '--format' && given[i + 1] === 'json'));
}
