/**
 * The one way gwops uses a session: open it, run the work, and always terminate it (a
 * client must end its session when it is finished: docs/gateway-api.md "Sessions"): on
 * success, on error, and on SIGHUP, SIGINT and SIGTERM.
 */
import { INTERRUPT_SIGNALS, signalSource } from '../core/interrupts.js';
import type { InterruptSignal, SignalSource } from '../core/interrupts.js';
import { InterruptedError } from './errors.js';
import { GatewaySession } from './session.js';
import type { SessionOptions } from './channel.js';

export type { SignalSource } from '../core/interrupts.js';

/** Options of {@link withSession}: the session's options (its `signal` is provided here) plus the signal source. */
export interface WithSessionOptions extends Omit<SessionOptions, 'signal'> {
  /** Default: the CLI's signal hub when installed, else `process`. */
  readonly signals?: SignalSource | undefined;
  /**
   * After a signal, once the session is terminated, how long `fn` may take to settle
   * before it is abandoned: {@link withSession} rejects with the signal's
   * InterruptedError (`abandoned`) without waiting for it (e.g. `fn` ignores the signal).
   * Milliseconds; default 5 000. A second signal shortens it to
   * {@link SECOND_SIGNAL_WAIT_MS} when it is longer.
   */
  readonly graceMs?: number | undefined;
}

/** How long a signal waits for the answer to `POST /session/create` before it is delivered. Milliseconds. */
export const OPEN_WAIT_MS = 10_000;

/** How long a second signal waits for the session's termination before the process ends. Milliseconds. */
export const SECOND_SIGNAL_WAIT_MS = 3_000;

/** What {@link withSession} gives `fn` besides the session and the abort signal. */
export interface SessionScope {
  /**
   * Runs `work` so that a signal arriving meanwhile does not cancel it at once: the
   * signal is held until `work` settles or `maxMs` (milliseconds) have passed, whichever
   * comes first, and then delivered as usual (the abort signal fires, the session is
   * terminated). For a call whose outcome must be known, such as an activation that has
   * been sent. Check `signal.aborted` after it returns to learn whether a signal came.
   * A second signal while a signal is held delivers it at once.
   * @param describe what is waited for, for the message on a held signal
   */
  shield<T>(work: () => Promise<T>, maxMs: number, describe: string): Promise<T>;
}

/**
 * Opens a session, runs `fn(session, signal, scope)`, and always terminates the session.
 *
 * While it runs, SIGHUP, SIGINT and SIGTERM handlers are installed on `options.signals`.
 * On the first signal the `signal` passed to `fn` aborts with an {@link InterruptedError}
 * (a running call is cancelled, later calls are refused), the session is terminated at
 * once, and when `fn` has settled this function rejects with that error (exit code 129,
 * 130 or 143; the CLI maps it like any GwopsError), or with the InterruptedError that
 * `fn` threw itself (one that says more, e.g. about an activation). Should `fn` not
 * settle within `graceMs` after the session was terminated, it is abandoned: this
 * function rejects at once with the InterruptedError marked `abandoned`, and the caller
 * must end the process (`fn` may still hold timers or sockets; the CLI's entry,
 * src/cli/process.ts, ends it with the exit code). A second signal does not abandon `fn`
 * at once: it waits (at most {@link SECOND_SIGNAL_WAIT_MS}) for the termination under
 * way; a third abandons it at once. During `scope.shield(...)` the first signal is held (see SessionScope).
 * The handlers are removed in every case before this function settles.
 *
 * A signal during `open()` is held until the gateway answers the create (at most
 * {@link OPEN_WAIT_MS}), so that the session it opened is terminated rather than left
 * to idle out; a second signal stops waiting.
 *
 * A failure to terminate is reported through `options.onWarning`, never thrown over the
 * original error or result.
 * @returns what `fn` returns
 * @throws whatever `open()` or `fn` throws (see GatewaySession), or InterruptedError
 */
export async function withSession<T>(
  options: WithSessionOptions,
  fn: (session: GatewaySession, signal: AbortSignal, scope: SessionScope) => Promise<T>,
): Promise<T> {
  const signals: SignalSource = options.signals ?? signalSource();
  const controller = new AbortController();
  const session = new GatewaySession({ ...options, signal: controller.signal });
  const handlers = new Map<InterruptSignal, () => void>(INTERRUPT_SIGNALS.map((s) => [s, () => onSignal(s)]));
  const removeHandlers = (): void => {
    for (const [signal, handler] of handlers) signals.off(signal, handler);
  };
  let abandon: (error: InterruptedError) => void = () => undefined;
  const abandoned = new Promise<never>((_resolve, reject) => (abandon = reject));
  abandoned.catch(() => undefined); // handled where it is raced; never unhandled
  let gaveUp = false;
  // `fn` is given up on: the caller gets the interruption now and ends the process.
  const exit = (signal: InterruptSignal): void => {
    removeHandlers();
    gaveUp = true;
    abandon(new InterruptedError(interrupted?.signal ?? signal, interrupted?.outcome, { abandoned: true }));
  };
  let interrupted: InterruptedError | undefined;
  let forceTimer: NodeJS.Timeout | undefined;
  let settled = false;
  let signalsSeen = 0;
  let shielding = 0;
  let held: { signal: InterruptSignal; timer: NodeJS.Timeout } | undefined;
  let shieldMs = 0;
  let shieldLabel = '';

  const forceExitAfter = (ms: number, signal: InterruptSignal): void => {
    if (settled) return;
    clearTimeout(forceTimer);
    forceTimer = setTimeout(() => exit(signal), ms);
  };
  const deliver = (signal: InterruptSignal): void => {
    if (held) clearTimeout(held.timer);
    held = undefined;
    if (interrupted) return;
    interrupted = new InterruptedError(signal);
    controller.abort(interrupted);
    void session.terminate().then(() => forceExitAfter(options.graceMs ?? 5_000, signal));
  };
  function onSignal(signal: InterruptSignal): void {
    signalsSeen += 1;
    if (signalsSeen >= 3) {
      exit(signal);
      return;
    }
    if (held || interrupted) {
      if (held) deliver(held.signal);
      options.onWarning?.(`${signal} again: waiting at most ${SECOND_SIGNAL_WAIT_MS / 1000} s for the REST session to be terminated (a third signal ends at once)`);
      forceExitAfter(Math.min(SECOND_SIGNAL_WAIT_MS, options.graceMs ?? 5_000), interrupted?.signal ?? signal);
      return;
    }
    if (shielding > 0) {
      options.onWarning?.(
        `${signal} received while ${shieldLabel} is in flight: waiting at most ${Math.ceil(shieldMs / 1000)} s for the gateway's answer ` +
          'so that the outcome is known (a second signal stops waiting; the outcome is then unknown)',
      );
      held = { signal, timer: setTimeout(() => deliver(signal), shieldMs) };
      return;
    }
    deliver(signal);
  }
  const scope: SessionScope = {
    async shield(work, maxMs, describe) {
      shielding += 1;
      shieldMs = maxMs;
      shieldLabel = describe;
      try {
        return await work();
      } finally {
        shielding -= 1;
        if (held && shielding === 0) deliver(held.signal);
      }
    },
  };

  for (const [signal, handler] of handlers) signals.on(signal, handler);
  try {
    let result: T;
    try {
      // A signal during the create waits for its answer, so that the session it opens is terminated, not left behind.
      await Promise.race([scope.shield(() => session.open(), OPEN_WAIT_MS, 'the session create request'), abandoned]);
      result = await Promise.race([fn(session, controller.signal, scope), abandoned]);
    } catch (error) {
      if (gaveUp || error instanceof InterruptedError) throw error;
      if (interrupted) throw interrupted;
      throw error;
    }
    if (interrupted) throw interrupted;
    return result;
  } finally {
    settled = true;
    clearTimeout(forceTimer);
    if (held) clearTimeout(held.timer);
    // An abandoned run does not wait for a termination still under way (a third signal ends at once).
    if (!gaveUp) await session.terminate();
    removeHandlers();
  }
}
