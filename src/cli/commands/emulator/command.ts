import type { Command } from 'commander';
import { VARIANTS } from '../../../kinds/index.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { helpText } from '../../help.js';
import type { CliIO, CommandModule } from '../../io.js';
import type { EmulatorCommandOptions } from './run.js';

/** Default key files, relative to the working directory. */
export const DEFAULT_API_KEY_FILE = '.gwops/emulator-api-key';
export const DEFAULT_READ_ONLY_API_KEY_FILE = '.gwops/emulator-read-only-api-key';
export const DEFAULT_CERT_FILE = '.gwops/emulator-cert.pem';

/** The examples and exit codes of `gwops emulator --help`. */
export const EMULATOR_HELP: CommandHelp = {
  examples: [
    { run: 'gwops emulator --port 8443', does: 'a gateway emulator on https://127.0.0.1:8443/airlock/rest, keys in .gwops/' },
    { run: 'gwops emulator --no-tls --port 0 --variant earliest --state-file state.json', does: 'plain HTTP on a free port, the earliest variant, configurations kept in state.json' },
  ],
  exitCodes: [
    [EXIT.ok, 'stopped by Ctrl+C (SIGINT), SIGTERM or SIGHUP'],
    [EXIT.error, 'it could not start (the port in use, a key or certificate file unreadable, a usage error)'],
  ],
};

/** Registers `gwops emulator`. */
export const registerEmulator: CommandModule = (program: Command, io: CliIO, done: (exitCode: number) => void) => {
  program
    .command('emulator')
    .addHelpText('after', helpText(EMULATOR_HELP))
    .description('Run a local gateway that speaks the configuration REST API (for demos, tests and CI)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8443')
    .option('--tls', 'serve HTTPS (default; self-signed certificate unless --tls-cert/--tls-key)')
    .option('--no-tls', 'serve plain HTTP')
    .option('--tls-cert <file>', 'PEM certificate to serve instead of a self-signed one')
    .option('--tls-key <file>', 'PEM private key of --tls-cert')
    .option('--api-key-file <file>', 'administrator API key: read from the file, or generated into it (mode 0600)', DEFAULT_API_KEY_FILE)
    .option('--read-only-api-key-file <file>', 'read-only API key: read from the file, or generated into it (mode 0600)', DEFAULT_READ_ONLY_API_KEY_FILE)
    .option('--cert-file <file>', 'write the served TLS certificate (PEM, no key) here for clients to trust', DEFAULT_CERT_FILE)
    .option('--state-file <file>', 'keep configurations across restarts in this file')
    .option('--variant <variant>', `gateway variant (${VARIANTS.join(', ')})`, 'latest')
    .option('--latency-ms <ms>', 'delay added to every call', '0')
    .option('--session-timeout-seconds <s>', 'idle timeout of REST sessions', '600')
    .option('--base-path <path>', 'base path of the API', '/airlock/rest')
    .option('--verbose', 'log one line per request to stderr')
    .option(
      '--fault <spec>',
      'inject a fault (repeatable), e.g. path=/configuration/mappings*,method=GET,status=503,nth=2; keys: path, method, status, nth, fraction, latency-ms, drop, expire-sessions',
      (spec: string, previous: string[] | undefined) => [...(previous ?? []), spec],
    )
    .option('--fault-seed <n>', 'seed of the fraction faults (same seed, same faulted calls)')
    .option(
      '--login-app',
      'also serve a login application\'s signing keys: a JWKS at /auth/rest/public/signing-keys/jwks (generated RSA keys); ' +
        'rotate with POST /emulator/login-app/signing-keys/rotate {"graceSeconds": N} (the old key stays published without alg for N seconds, default 3600) ' +
        'and end grace periods with POST /emulator/login-app/signing-keys/expire, both with the administrator key as Bearer',
    )
    .action(async (opts: EmulatorCommandOptions) => {
      const { runEmulatorCommand, signalled } = await import('./run.js');
      done(await runEmulatorCommand(opts, io, signalled()));
    });
};
