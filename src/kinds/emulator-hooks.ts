/**
 * What the gateway emulator needs to know about a kind, held by the kind's own module
 * (`src/kinds/<kind>/emulator.ts`), so that the emulator's generic code never names a
 * kind. Types only: nothing here imports the emulator.
 */

/** The emulator's view of one kind. */
export interface EmulatorHooks {
  /** How validator messages and errors name an object of this kind, e.g. `virtual host`. */
  readonly label: string;
}
