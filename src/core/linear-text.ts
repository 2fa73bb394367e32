/**
 * Small text operations on input gwops did not write (URLs, file contents, gateway answers)
 * in time linear in the text's length. The regular expressions they replace (`/\/+$/`,
 * `/(\r?\n)+$/`, `/<!--[\s\S]*?-->/g`, …) backtrack: each start that fails scans to the end
 * of the text again, so a long run without the closing part takes quadratic time, during
 * which the process cannot even answer a signal (README.md "Output contract";
 * test/drills/regex-cost.test.ts checks every regular expression of src/).
 */

/** `text` without the characters of `chars` at its end (`trimTrailing('a//', '/')` is `'a'`). */
export function trimTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the characters of `chars` at both ends. */
export function trimEdges(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text.charAt(start))) start++;
  return trimTrailing(start === 0 ? text : text.slice(start), chars);
}

/** `text` without its trailing line breaks (`\n` and `\r\n`; a lone `\r` stays, as in `/(\r?\n)+$/`). */
export function withoutTrailingLineBreaks(text: string): string {
  let end = text.length;
  while (end > 0 && text.charAt(end - 1) === '\n') end -= end > 1 && text.charAt(end - 2) === '\r' ? 2 : 1;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * The sections of `text` from an `open` string to the nearest `close` string after it, left
 * to right and not overlapping, as `/open[\s\S]*?close/g` finds them: `[start, end)` offsets,
 * the delimiters included.
 */
export function delimitedSpans(text: string, open: string, close: string): [number, number][] {
  const spans: [number, number][] = [];
  for (let at = text.indexOf(open); at >= 0; ) {
    const end = text.indexOf(close, at + open.length);
    // Without a close after this open, there is none after a later one either.
    if (end < 0) break;
    spans.push([at, end + close.length]);
    at = text.indexOf(open, end + close.length);
  }
  return spans;
}

/** The sections {@link delimitedSpans} finds, as strings (what `text.match(/open[\s\S]*?close/g)` returns). */
export function delimitedSections(text: string, open: string, close: string): string[] {
  return delimitedSpans(text, open, close).map(([start, end]) => text.slice(start, end));
}

/**
 * `text` without its sections from an open string to the nearest close string after it,
 * for several such pairs at once (`text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, '')` is
 * `withoutDelimited(text, [['<?', '?>'], ['<!--', '-->']])`): the earliest open wins, a
 * section ends at its own pair's close.
 */
export function withoutDelimited(text: string, pairs: readonly (readonly [string, string])[]): string {
  // The next offset of each pair's open at or after `i`: undefined when not yet looked up, -1 when none is left.
  const next: (number | undefined)[] = pairs.map(() => undefined);
  let out = '';
  let i = 0;
  for (;;) {
    let best = -1;
    pairs.forEach(([open], k) => {
      let at = next[k];
      if (at === undefined || (at >= 0 && at < i)) next[k] = at = text.indexOf(open, i);
      if (at >= 0 && (best < 0 || at < (next[best] ?? 0))) best = k;
    });
    const pair = pairs[best];
    const at = next[best];
    if (pair === undefined || at === undefined) break;
    const end = text.indexOf(pair[1], at + pair[0].length);
    if (end < 0) {
      // No close after this open: none after a later open of this pair either.
      next[best] = -1;
      continue;
    }
    out += text.slice(i, at);
    i = end + pair[1].length;
  }
  return i === 0 ? text : out + text.slice(i);
}
