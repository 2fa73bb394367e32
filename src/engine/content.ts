/**
 * The content sub-resource of a document (kinds with `KindDefinition.content`;
 * docs/manifest-reference.md "Document content"): the bytes of an OpenAPI or GraphQL
 * specification, compared by SHA-256 digest, and the unified diff of their text that a plan
 * shows. Pure.
 */
import { createTwoFilesPatch } from 'diff';
import type { ObjectContent } from '../core/object-content.js';
import type { ContentChange } from './plan-types.js';

export type { ObjectContent } from '../core/object-content.js';
export { objectContent } from '../core/object-content.js';

/** Lines of a unified diff a plan carries at most; a longer diff is cut with a note. */
export const CONTENT_DIFF_LINES = 200;

/**
 * Changed lines beyond which no diff is computed (the diff's cost grows with the size of
 * the texts times the number of changes): the plan then shows the digests only.
 */
export const CONTENT_DIFF_EDITS = 2000;

/** The bytes of decoded UTF-8 text, or undefined for bytes that are not valid UTF-8 or hold a NUL (binary). */
function asText(base64: string): string | undefined {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * What changes when `desired` content replaces `live` (absent: the gateway has none, as
 * after a create), or undefined when the digests match. The unified diff compares the live
 * text (`gateway`) with the desired text (`manifest`), three lines of context, cut after
 * {@link CONTENT_DIFF_LINES} lines; bytes that are not UTF-8 text get no diff (`binary`),
 * nor do texts with more than {@link CONTENT_DIFF_EDITS} changed lines (`tooManyChanges`).
 */
export function contentChange(desired: ObjectContent, live: ObjectContent | undefined): ContentChange | undefined {
  if (live?.digest === desired.digest) return undefined;
  const after = asText(desired.base64);
  const before = live === undefined ? '' : asText(live.base64);
  const base = { ...(live !== undefined ? { before: live.digest } : {}), after: desired.digest, bytes: Buffer.byteLength(desired.base64, 'base64') };
  if (after === undefined || before === undefined) return { ...base, binary: true };
  const patch = createTwoFilesPatch('gateway', 'manifest', before, after, undefined, undefined, { context: 3, maxEditLength: CONTENT_DIFF_EDITS });
  if (patch === undefined) return { ...base, tooManyChanges: true };
  // The `===` line and the two file headers say nothing a plan does not show already.
  const lines = patch.split('\n').filter((line, i) => !(i < 4 && (line.startsWith('===') || line.startsWith('---') || line.startsWith('+++'))));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const cut = lines.length > CONTENT_DIFF_LINES;
  return { ...base, diff: lines.slice(0, CONTENT_DIFF_LINES).join('\n'), ...(cut ? { omittedLines: lines.length - CONTENT_DIFF_LINES } : {}) };
}
