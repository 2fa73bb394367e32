/**
 * gwops as a real process: what `bin/gwops.js` runs. Before the CLI is even loaded it
 * installs the signal hub (so a signal at any moment gets a message and its exit code:
 * 129 SIGHUP, 130 SIGINT, 143 SIGTERM) and makes a closed output pipe (`gwops plan |
 * head -1`) end quietly instead of crashing, and sets how the heap grows (src/core/heap.ts
 * `configureHeap`). Only `../interrupts.js` is imported statically, so this costs nothing
 * at start-up.
 */
import { SignalHub, useSignalHub } from '../core/interrupts.js';
import { SIGNAL_EXIT } from '../core/exit-codes.js';
import type { InterruptSignal } from '../core/interrupts.js';

/** Ignores write errors of a standard stream: a reader that went away (EPIPE) or a closed terminal (EIO). */
function tolerateClosedStream(stream: NodeJS.WriteStream): void {
  stream.on('error', () => undefined);
}

/**
 * Runs the CLI with the process's argv and IO and ends the process with the exit code
 * the CLI decided (src/cli/exit.ts): the one place of gwops that sets an exit code or
 * calls `process.exit` (ESLint). A signal that arrives while no REST session is open ends
 * the process at once with its exit code; while one is open, the session's own handlers
 * terminate it first. An interrupted run (exit 129, 130, 143) ends the process at once:
 * work the session gave up on past its grace period (src/gateway/lifecycle.ts) may still
 * hold timers or sockets. Else the process ends when its work is done.
 */
export async function runProcess(argv: readonly string[]): Promise<void> {
  tolerateClosedStream(process.stdout);
  tolerateClosedStream(process.stderr);
  // Once the CLI is loaded: the failure document of `--format json` (src/cli/main.ts).
  let jsonFailure: (message: string) => void = () => undefined;
  const hub = new SignalHub(process, (signal: InterruptSignal) => {
    const message = `interrupted by ${signal}: no REST session was open`;
    process.stderr.write(`${message}\n`);
    jsonFailure(message);
    process.exit(SIGNAL_EXIT[signal]);
  });
  hub.install();
  useSignalHub(hub);
  (await import('../core/heap.js')).configureHeap();
  const { main } = await import('./main.js');
  const code = await main(argv, undefined, (write) => (jsonFailure = write));
  if (Object.values<number>(SIGNAL_EXIT).includes(code)) process.exit(code);
  process.exitCode = code;
}
