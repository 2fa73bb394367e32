/**
 * The lines that say which differences a plan kept because a `drift.ignore` entry in
 * force matches them (Plan `ignored`; src/engine/ignored-differences.ts), shared by the
 * text and markdown renderers. Pure. The entry's reason is the project file's text: it is
 * shown quoted, with invisible characters escaped (src/core/display.ts).
 */
import { escapeInvisible } from '../core/display.js';
import type { KeptDifference, KeptDirection } from '../engine/ignored-differences.js';
import { objectTitle } from './values.js';

const WORDS: Readonly<Record<KeptDirection, string>> = {
  changed: 'changed on the gateway',
  added: 'added on the gateway',
  'link-added': 'link added on the gateway',
  'link-deleted': 'link deleted on the gateway',
};

/** `2 ignored differences kept (drift.ignore in the project file); the plan does not undo them:` */
export function keptHeading(count: number): string {
  return `${count} ignored difference${count === 1 ? '' : 's'} kept (drift.ignore in the project file); the plan does not undo ${count === 1 ? 'it' : 'them'} until the entry expires:`;
}

/** One kept difference: `mapping "shop" backendHosts: changed on the gateway, ignored until 2026-12-31 ("load test")`. */
export function keptLine(kept: KeptDifference): string {
  const path = kept.path === undefined ? '' : ` ${escapeInvisible(kept.path)}`;
  const related = kept.related ? ` (${objectTitle(kept.related)})` : '';
  return `${objectTitle(kept)}${path}${related}: ${WORDS[kept.direction]}, ignored until ${kept.ignoredBy.until} (${escapeInvisible(JSON.stringify(kept.ignoredBy.reason))})`;
}
