/**
 * The process signals that end a gwops run, in one place: which ones, their exit codes,
 * and a hub that routes each one either to whoever is cleaning up (a REST session that
 * must be terminated) or, when nobody is, to a fallback that ends the process at once.
 *
 * The CLI installs the hub before it loads anything else, so a signal at any moment gets
 * a message and the conventional exit code (128 + the signal's number): 129 for SIGHUP
 * (a closed terminal), 130 for SIGINT (Ctrl+C), 143 for SIGTERM (`SIGNAL_EXIT` of
 * src/core/exit-codes.ts, which the CLI's entry reads). This module imports nothing,
 * so installing it costs nothing at start-up.
 */

/** The signals gwops handles. */
export type InterruptSignal = 'SIGHUP' | 'SIGINT' | 'SIGTERM';

/** Every signal gwops handles, in the order they are installed. */
export const INTERRUPT_SIGNALS: readonly InterruptSignal[] = ['SIGHUP', 'SIGINT', 'SIGTERM'];

/** Where signal listeners are registered: `process`, a {@link SignalHub}, or an EventEmitter in tests. */
export interface SignalSource {
  on(event: InterruptSignal, listener: () => void): unknown;
  off(event: InterruptSignal, listener: () => void): unknown;
}

/**
 * Routes process signals. Listeners registered with `on` (scoped: a session registers
 * while it is open) receive each signal; when none is registered for it, `fallback` does.
 */
export class SignalHub implements SignalSource {
  private readonly scoped = new Map<InterruptSignal, Set<() => void>>();
  private readonly installed = new Map<InterruptSignal, () => void>();

  /**
   * @param source where the real signals come from (`process`)
   * @param fallback called with a signal that no scoped listener takes
   */
  constructor(
    private readonly source: SignalSource,
    private readonly fallback: (signal: InterruptSignal) => void,
  ) {}

  /** Starts listening on the source for every signal of {@link INTERRUPT_SIGNALS}. Idempotent. */
  install(): void {
    for (const signal of INTERRUPT_SIGNALS) {
      if (this.installed.has(signal)) continue;
      const listener = (): void => this.dispatch(signal);
      this.installed.set(signal, listener);
      this.source.on(signal, listener);
    }
  }

  /** Stops listening on the source. */
  uninstall(): void {
    for (const [signal, listener] of this.installed) this.source.off(signal, listener);
    this.installed.clear();
  }

  on(event: InterruptSignal, listener: () => void): this {
    const set = this.scoped.get(event) ?? new Set();
    set.add(listener);
    this.scoped.set(event, set);
    return this;
  }

  off(event: InterruptSignal, listener: () => void): this {
    this.scoped.get(event)?.delete(listener);
    return this;
  }

  /** Delivers `signal` as if the process had received it. */
  dispatch(signal: InterruptSignal): void {
    const listeners = [...(this.scoped.get(signal) ?? [])];
    if (listeners.length === 0) {
      this.fallback(signal);
      return;
    }
    for (const listener of listeners) listener();
  }
}

let processHub: SignalHub | undefined;

/** Makes `hub` the source that {@link signalSource} answers (the CLI does this once at start). */
export function useSignalHub(hub: SignalHub | undefined): void {
  processHub = hub;
}

/** The installed hub, else `process` (a library use of gwops without the CLI). */
export function signalSource(): SignalSource {
  return processHub ?? process;
}

/**
 * For long synchronous work on input (the checks of a large manifest set): returns a
 * function to call between items, which answers undefined, except once `intervalMs` of
 * work has passed since the last turn: then a promise of one turn of the event loop, to
 * await, during which signal handlers run. So SIGINT and SIGTERM are answered within a
 * second however long the work is.
 */
export function eventLoopTurns(intervalMs = 100): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < intervalMs) return undefined;
    last = now;
    return new Promise((resolve) => setImmediate(resolve));
  };
}
