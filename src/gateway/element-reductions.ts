/**
 * A list element's reductions (src/gateway/data-array.ts): the members of its `attributes`
 * objects the framing kept (with a sparse fieldset) or found repeated from the previous
 * element (without one), the text given to `JSON.parse` with them applied, and the shared
 * values put back in place of the placeholders afterwards.
 */
import { randomUUID } from 'node:crypto';
import { setOwnMember } from '../core/own-member.js';

/** A member of the previous element's `attributes`, at the same place: its bytes and whether it was kept. */
export interface Remembered {
  /** The member as written: name, colon, value (and any white space before the next). */
  readonly bytes: Buffer;
  /** Bytes of `bytes` up to the end of the name's closing quote. */
  readonly nameEnd: number;
  readonly kept: boolean;
  /** Its name and value, parsed when first reused (the value deep-frozen: every element reusing it shares it). */
  parsed?: { readonly name: string; readonly value: unknown };
}

/** A remembered member met again in an element: where, counted from the element's first byte. */
export interface Reuse {
  readonly start: number;
  readonly end: number;
  readonly member: Remembered;
}

/**
 * What a reused member's value is written as in the text given to JSON.parse, before the
 * shared parsed value takes its place: a string no server can send by chance.
 */
const REUSED = `\\u0000gwops-reused:${randomUUID()}`;
const REUSED_TEXT = `:"${REUSED}"`;
const REUSED_VALUE = JSON.parse(`"${REUSED}"`) as string;

/** A byte range `[start, end)` of an element, counted from the element's first byte. */
export type Range = readonly [start: number, end: number];

/**
 * One `attributes` object of an element: where it opens and closes, the members kept (with
 * a sparse fieldset) and the members reused (without one).
 */
export interface Reduction {
  readonly open: number;
  close: number;
  readonly kept: Range[];
  readonly reused: Reuse[];
}

/**
 * Puts the shared values of the reused members into the parsed element's `attributes`,
 * where JSON.parse left the placeholder: the last object and the last member first, so that
 * a name written twice gets the value JSON.parse would have kept.
 */
export function putReused(element: unknown, reductions: readonly Reduction[]): void {
  const attributes = (element as { attributes?: unknown }).attributes;
  if (typeof attributes !== 'object' || attributes === null) return;
  for (let r = reductions.length - 1; r >= 0; r--) {
    const reused = reductions[r]?.reused ?? [];
    for (let k = reused.length - 1; k >= 0; k--) {
      const member = reused[k]?.member;
      if (!member) continue;
      member.parsed ??= parsedMember(member.bytes);
      const { name, value } = member.parsed;
      const record = attributes as Record<string, unknown>;
      if (record[name] !== REUSED_VALUE) continue;
      // Replaces the placeholder where it is.
      setOwnMember(record, name, value);
    }
  }
}

/** A member's name and value from its bytes, the value deep-frozen. */
function parsedMember(bytes: Buffer): { name: string; value: unknown } {
  const [entry] = Object.entries(JSON.parse(`{${bytes.toString('utf8')}}`) as Record<string, unknown>);
  return { name: entry?.[0] ?? '', value: deepFrozen(entry?.[1]) };
}

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFrozen(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * The text of the element with each reduced `attributes` object holding only its kept
 * members (with a sparse fieldset), or with each reused member's value written as a
 * placeholder (without). Decoded piece by piece: every cut is at an ASCII quote, comma or
 * brace, never inside a character.
 */
export function reducedText(element: Buffer, reductions: readonly Reduction[]): string {
  let text = '';
  let from = 0;
  for (const { open, close, kept, reused } of reductions) {
    if (reused.length > 0) {
      for (const { start, end, member } of reused) {
        text += element.toString('utf8', from, start + member.nameEnd) + REUSED_TEXT;
        from = end;
      }
      continue;
    }
    text += element.toString('utf8', from, open + 1);
    kept.forEach(([start, end], k) => {
      text += (k > 0 ? ',' : '') + element.toString('utf8', start, end);
    });
    from = close;
  }
  return text + element.toString('utf8', from);
}
