/**
 * Declared names that look like the name of a live object without being it: equal once
 * both are brought to Unicode compatibility form (NFKC: composed accents, fullwidth
 * letters, ligatures such as `ﬁ`) and lower case, but not equal as written. The plan
 * would create the declared object beside the live one, and a terminal shows both names
 * alike, so the run warns, naming both with every character outside printable ASCII
 * escaped (`\u{ff53}`). Pure.
 */
import type { ResourceType } from '../kinds/index.js';
import type { State } from './model.js';

/** The form two names are compared in: NFKC, then lower case (and NFKC again, as lower-casing may decompose). */
export function foldedName(name: string): string {
  return name.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** `name` quoted, with each code point outside printable ASCII (and `\` itself) as `\u{hex}`: two look-alike names show their difference. */
export function escapedName(name: string): string {
  let out = '';
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    out += code >= 0x20 && code < 0x7f && ch !== '\\' ? ch : `\\u{${code.toString(16)}}`;
  }
  return `'${out}'`;
}

/** One declared name that looks like a live one (of the same kind). */
export interface LookalikeName {
  readonly kind: ResourceType;
  /** The declared name, which the live state does not hold. */
  readonly declared: string;
  /** The live name it looks like. */
  readonly live: string;
}

/**
 * The declared objects that the live state holds no object of by their name, but of a
 * name equal to theirs under {@link foldedName}: in kind order, then declared order.
 */
export function lookalikeNames(desired: State, live: State): LookalikeName[] {
  const out: LookalikeName[] = [];
  for (const [kind, objects] of desired.objects) {
    const held = live.objects.get(kind);
    if (!held || held.size === 0) continue;
    let byFolded: Map<string, string[]> | undefined;
    for (const name of objects.keys()) {
      if (held.has(name)) continue;
      if (!byFolded) {
        byFolded = new Map();
        for (const liveName of held.keys()) {
          const key = foldedName(liveName);
          const names = byFolded.get(key);
          if (names) names.push(liveName);
          else byFolded.set(key, [liveName]);
        }
      }
      for (const liveName of byFolded.get(foldedName(name)) ?? []) out.push({ kind, declared: name, live: liveName });
    }
  }
  return out;
}

/** The warning about one {@link LookalikeName}. */
export function lookalikeWarning(found: LookalikeName): string {
  return (
    `${found.kind} ${escapedName(found.declared)} will be created beside the live ${found.kind} ${escapedName(found.live)}: ` +
    'the names differ only by Unicode normalisation, width or case and look alike; rename the declared one, or declare the live one by its own name'
  );
}
