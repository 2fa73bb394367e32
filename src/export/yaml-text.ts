/**
 * The YAML text export writes: `js-yaml` with no line folding, no anchors and double quotes
 * where a string needs quotes (it quotes the words YAML 1.1 reads as booleans, `"yes"`,
 * `"on"`, too, so that the files read the same with older YAML readers).
 *
 * Zero-width and bidi characters of a name or value are written as `\uXXXX` escapes inside
 * a double-quoted string, never raw: raw, they would hide in an editor or a diff, or reorder
 * what a reviewer reads (README.md "Output contract"). `js-yaml` escapes control characters
 * itself but writes these as they are, so each one is first replaced by a control character
 * (which makes `js-yaml` choose double quotes and escape it as `\x01`) followed by a marker
 * found nowhere in the value and its code point, and the escape is completed in the text.
 */
import { randomBytes } from 'node:crypto';
import { dump } from 'js-yaml';
import { hasInvisible, mapInvisible } from '../core/display.js';

const YAML_OPTIONS = { lineWidth: -1, noRefs: true, quotingType: '"' } as const;

/** The first code point `js-yaml` writes raw although {@link mapInvisible} counts it as invisible. */
const FIRST_RAW_INVISIBLE = 0xa0;

/** Every string and key of a JSON value with its raw-written invisible characters replaced by `\x01<marker><hex4>`. */
function marked(value: unknown, marker: string): unknown {
  const mark = (text: string): string =>
    mapInvisible(text, (ch) => {
      const code = ch.charCodeAt(0);
      return code < FIRST_RAW_INVISIBLE ? ch : `\x01${marker}${code.toString(16).toUpperCase().padStart(4, '0')}`;
    });
  if (typeof value === 'string') return mark(value);
  if (Array.isArray(value)) return value.map((item) => marked(item, marker));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    // defineProperty: a key such as `__proto__` stays a key of its own.
    for (const [key, item] of Object.entries(value)) Object.defineProperty(out, mark(key), { value: marked(item, marker), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/**
 * `value` (JSON data) as YAML text ending in a line feed, with no zero-width or bidi
 * character raw (see the module comment).
 */
export function yamlText(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  // JSON escapes control characters: what is left invisible in it are those js-yaml may write raw.
  if (!hasInvisible(json)) return dump(value, YAML_OPTIONS);
  let marker = randomBytes(8).toString('hex');
  while (json.includes(marker)) marker = randomBytes(8).toString('hex');
  return dump(marked(value, marker), YAML_OPTIONS).replaceAll(`\\x01${marker}`, '\\u');
}
