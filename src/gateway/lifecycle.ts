/**
 * The one way gwops uses a session: open it, run the work, and always terminate it
 * (gateway-config-api.md "A session must be terminated when the client is finished";
 * issue 4 "Connection"): on success, on error, and on SIGINT/SIGTERM.
 */
import { InterruptedError } from './errors.js';
import { GatewaySession } from './session.js';
import type { SessionOptions } from './session.js';

type Signal = 'SIGINT' | 'SIGTERM';

/** Where signal handlers are installed; `process` by default (tests pass an EventEmitter). */
export interface SignalSource {
  on(event: Signal, listener: () => void): unknown;
  off(event: Signal, listener: () => void): unknown;
}

/** Options of {@link withSession}: the session's options (its `signal` is provided here) plus the signal source. */
export interface WithSessionOptions extends Omit<SessionOptions, 'signal'> {
  /** Default: `process`. */
  readonly signals?: SignalSource | undefined;
  /**
   * After a signal, once the session is terminated, how long `fn` may take to settle
   * before the process is ended with 130/143 anyway (e.g. `fn` waits on a prompt).
   * Milliseconds; default 5 000.
   */
  readonly graceMs?: number | undefined;
  /** Ends the process when `fn` overruns the grace period. Default: `process.exit`. */
  readonly exit?: ((code: number) => void) | undefined;
}

/**
 * Opens a session, runs `fn(session, signal)`, and always terminates the session.
 *
 * While it runs, SIGINT and SIGTERM handlers are installed. On the first signal the
 * `signal` passed to `fn` aborts (a running call is cancelled, later calls are refused),
 * the session is terminated at once, the handlers are removed (a second signal ends the
 * process the default way), and when `fn` has settled this function rejects with an
 * {@link InterruptedError} whose `exitCode` is 130 (SIGINT) or 143 (SIGTERM): the CLI maps
 * it like any GwopsError, so the process ends with that code. Should `fn` not settle
 * within `graceMs` after the session was terminated (it ignores the signal, or waits on
 * a prompt), the process is ended with that code through `exit`. The handlers are
 * removed in every case before this function settles.
 *
 * A signal during `open()` cancels it; a session the gateway created for a lost
 * response then idles out.
 *
 * A failure to terminate is reported through `options.onWarning`, never thrown over the
 * original error or result.
 * @returns what `fn` returns
 * @throws whatever `open()` or `fn` throws (see GatewaySession), or InterruptedError
 */
export async function withSession<T>(options: WithSessionOptions, fn: (session: GatewaySession, signal: AbortSignal) => Promise<T>): Promise<T> {
  const signals: SignalSource = options.signals ?? process;
  const controller = new AbortController();
  const session = new GatewaySession({ ...options, signal: controller.signal });
  let interrupted: InterruptedError | undefined;
  let forceTimer: NodeJS.Timeout | undefined;
  let settled = false;
  const exit = options.exit ?? ((code: number): void => process.exit(code));

  const handlers: Record<Signal, () => void> = {
    SIGINT: () => onSignal('SIGINT'),
    SIGTERM: () => onSignal('SIGTERM'),
  };
  let installed = false;
  const removeHandlers = (): void => {
    if (!installed) return;
    installed = false;
    signals.off('SIGINT', handlers.SIGINT);
    signals.off('SIGTERM', handlers.SIGTERM);
  };
  function onSignal(signal: Signal): void {
    if (interrupted) return;
    interrupted = new InterruptedError(signal);
    removeHandlers();
    controller.abort(interrupted);
    const code = interrupted.exitCode;
    void session.terminate().then(() => {
      if (settled) return;
      forceTimer = setTimeout(() => exit(code), options.graceMs ?? 5_000);
    });
  }
  signals.on('SIGINT', handlers.SIGINT);
  signals.on('SIGTERM', handlers.SIGTERM);
  installed = true;

  try {
    let result: T;
    try {
      await session.open();
      result = await fn(session, controller.signal);
    } catch (error) {
      if (interrupted) throw interrupted;
      throw error;
    }
    if (interrupted) throw interrupted;
    return result;
  } finally {
    settled = true;
    clearTimeout(forceTimer);
    removeHandlers();
    await session.terminate();
  }
}
