/**
 * `gwops rollback <configuration-id | commit-sha-prefix>`: shows what bringing back an
 * earlier configuration would change against the active one, within the project's
 * ownership scope unless `--whole-configuration` (plan's renderers), asks for consent as
 * apply does, and activates the result with the comment
 * `gwops rollback: to configuration <id> (<sha7> <subject>)`. The manifests are not
 * touched, so the output says how to make Git agree.
 */
import { runRollback } from '../../../operations/rollback.js';
import { consent } from '../../consent.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CliIO } from '../../io.js';
import type { ConnectionFlags } from '../../connection-flags.js';
import { gatewayInput } from '../../connection-flags.js';
import { rollbackView } from './view.js';

/** Flags of `gwops rollback`. */
export interface RollbackFlags extends ConnectionFlags {
  yes?: boolean;
  wholeConfiguration?: boolean;
  format: 'text' | 'markdown' | 'json';
}

/** `gwops rollback`. @returns the exit code */
export async function rollbackAction(ref: string, flags: RollbackFlags, io: CliIO): Promise<number> {
  const view = rollbackView(flags.format, io, { yes: flags.yes });
  const result = await runRollback({
    ...gatewayInput(flags, io),
    ref,
    wholeConfiguration: flags.wholeConfiguration,
    onPreview: (preview) => view.preview(preview),
    confirm: (_preview, signal) =>
      consent(io, flags.yes, '\nDo you want to activate this configuration? Only "yes" is accepted: ', signal, 're-run with --yes to roll back'),
  }).catch((error: unknown) => view.failure(error));
  view.done(result);
  switch (result.outcome) {
    case 'already-active':
    case 'no-changes':
    case 'activated':
      return EXIT.ok;
    case 'cancelled':
      return EXIT.error;
  }
}
