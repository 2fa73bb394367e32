/**
 * Whether output gets ANSI colours, decided once for every command (README.md
 * "Colours"): `--no-color` turns them off; otherwise `FORCE_COLOR` (set, and not `0` or
 * `false`) turns them on even when piped, and `FORCE_COLOR=0` off; otherwise a non-empty
 * `NO_COLOR` (no-color.org) or `TERM=dumb` turn them off; otherwise they are on when
 * stdout is a terminal.
 */
import type { CliIO } from './io.js';

/** True when `FORCE_COLOR` asks for colours. */
function forced(env: CliIO['env']): boolean | undefined {
  const value = env.FORCE_COLOR;
  if (value === undefined) return undefined;
  return value !== '0' && value.toLowerCase() !== 'false';
}

/** True when the output of `io` gets ANSI colours (see the module comment). */
export function colorEnabled(io: CliIO): boolean {
  if (io.noColor === true) return false;
  const force = forced(io.env);
  if (force !== undefined) return force;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.isTTY && io.env.TERM !== 'dumb';
}
