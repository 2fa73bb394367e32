/**
 * Who and when, for a drift report: out of the gateway's configurations list
 * (docs/gateway-api.md "Configurations and activation": newest first, with `configType`,
 * `createdAt`, `createdBy`, `comment`), the activations made since the last one gwops made,
 * recognised by the comment formats `gwops apply` and `gwops rollback` write
 * (commit-comment.ts). Pure. A rollback is gwops's own activation but not the manifests':
 * it counts among the activations since the last `gwops apply`, marked with the
 * configuration it activated again, so a report names it as the cause.
 *
 * The configurations list does not say which objects an activation changed, so every
 * difference is attributed to the activations since gwops's last one as a group. The drift
 * cannot be attributed when no activation followed gwops's (the change was never activated
 * through the configurations the list shows), or when the list holds no activation by gwops
 * (none was made, or the history no longer reaches back to it).
 */
import type { ConfigurationEntry } from '../api/documents.js';
import { parseActivationComment, parseRollbackComment } from './commit-comment.js';

/** One activation as the report names it. */
export interface DriftActivation {
  readonly id: string;
  readonly configType?: string;
  readonly createdAt?: string;
  readonly createdBy?: string;
  readonly comment?: string;
  /** When `gwops rollback` made this activation: the id of the configuration it activated again. */
  readonly rollbackTo?: string;
}

/** The attribution of a drift report. */
export interface DriftAttribution {
  /** The last activation gwops made, when the list holds one. */
  readonly lastGwops?: DriftActivation;
  /** Activations after it, newest first (empty when none, or when there is no `lastGwops`). */
  readonly since: readonly DriftActivation[];
  /** Why the drift cannot be attributed, when it cannot (no `since` entries). */
  readonly unattributed?: string;
}

/**
 * `configType`s of configurations that were never activated: the initial one, and saved ones
 * as the emulator names them. docs/gateway-api.md "Configurations and activation" documents
 * only `CURRENTLY_ACTIVE` and `INITIAL` and says saved ones have other values; an unknown
 * value counts as an activation (so a gateway's saved configurations may be listed too,
 * with their `configType`).
 */
const NEVER_ACTIVATED: ReadonlySet<string> = new Set(['INITIAL', 'SAVED']);

function activation(entry: ConfigurationEntry): DriftActivation {
  const rollback = parseRollbackComment(entry.comment);
  return {
    ...(rollback ? { rollbackTo: rollback.configuration } : {}),
    id: entry.id,
    ...(entry.configType !== undefined ? { configType: entry.configType } : {}),
    ...(entry.createdAt !== undefined ? { createdAt: entry.createdAt } : {}),
    ...(entry.createdBy !== undefined ? { createdBy: entry.createdBy } : {}),
    ...(entry.comment !== undefined ? { comment: entry.comment } : {}),
  };
}

/** True when gwops made the configuration (its comment is one `gwops apply` or `gwops rollback` writes). */
export function madeByGwops(entry: ConfigurationEntry): boolean {
  return parseActivationComment(entry.comment) !== undefined || parseRollbackComment(entry.comment) !== undefined;
}

/**
 * The activations since gwops's last one, newest first.
 * @param list the configurations list in the gateway's order (newest first)
 */
export function attributeDrift(list: readonly ConfigurationEntry[]): DriftAttribution {
  const activated = list.filter((e) => e.configType === undefined || !NEVER_ACTIVATED.has(e.configType));
  // The manifests were last applied by `gwops apply`; a rollback after it is one of the activations since.
  const applied = activated.findIndex((e) => parseActivationComment(e.comment) !== undefined);
  const index = applied >= 0 ? applied : activated.findIndex(madeByGwops);
  const last = activated[index];
  if (index < 0 || last === undefined) {
    return { since: [], unattributed: 'the configuration history holds no activation made by gwops to compare with' };
  }
  const since = activated.slice(0, index).map(activation);
  return {
    lastGwops: activation(last),
    since,
    ...(since.length === 0 ? { unattributed: 'no configuration was activated since the last activation by gwops' } : {}),
  };
}
