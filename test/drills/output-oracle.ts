/**
 * The oracle of the output-channel drill (output-channels.test.ts) and of the renderers'
 * tests: what the bytes of an output channel may not hold when text gwops did not write
 * went into it. Hostile strings carry markers (`FORGED`, `evil.example`, `octo-victim`,
 * `onerror`) so that what came from the input is told from what gwops writes itself.
 */

/** Hostile strings: each a way text of the input tries to drive a channel. */
export const HOSTILE: readonly { readonly label: string; readonly text: string }[] = [
  { label: 'CR + workflow command', text: 'x\r::error file=a.yaml,line=1::FORGED cr' },
  { label: 'LF + workflow command', text: 'x\n::warning::FORGED lf' },
  { label: 'LF + output line', text: 'x\nexitcode=0\nreport=/proc/self/environ' },
  { label: 'ESC hidden text', text: '\x1b[8mFORGED hidden\x1b[28m' },
  { label: 'ESC colour of gwops', text: '\x1b[31mFORGED red\x1b[39m' },
  { label: 'ESC hyperlink (OSC 8)', text: '\x1b]8;;https://evil.example/\x07FORGED\x1b]8;;\x07' },
  { label: 'workflow command', text: '::error::FORGED colons' },
  { label: 'markdown link', text: '[FORGED](https://evil.example/x)' },
  { label: 'autolink', text: '<https://evil.example/auto>' },
  { label: '@mention', text: 'cc @octo-victim please' },
  { label: 'HTML', text: '<img src=x onerror=alert(1)>' },
  { label: 'backticks', text: '`a` ``b`` ```c``` |pipe|' },
  { label: 'bidi and zero-width', text: 'a\u202egnp.exe\u200b\u2066b\u2069' },
  { label: 'long', text: `long-${'L'.repeat(20_000)}` },
];

/* eslint-disable no-control-regex -- finding control characters is the point */
/** gwops's own colour codes (src/core/display.ts: the palette of picocolors it uses). */
const OWN_SGR = /\x1b\[(?:1|2|22|31|32|33|34|36|39)m/g;
/** Control characters (C0 but line feed and tab, DEL, C1): never raw in any channel, files included. */
const CONTROL = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/g;
/** Controls that may not reach a channel raw (line feed and tab are the channels' own). */
const RAW = /[\x00-\x08\x0B-\x1F\x7F-\x9F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
/** The progress line's erase (src/cli/progress.ts). */
const ERASE = /\r\x1b\[K/g;
/** The control characters a project file refuses in a key (all but tab, line feed and carriage return). */
export const REFUSED_IN_KEYS = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]/;
/** A colour code of the input's hostile strings, raw. */
const INPUT_SGR = /\x1b\[(?:31|8)mFORGED/;
/* eslint-enable no-control-regex */

/** A GitHub annotation as gwops writes it: properties `name=value` without raw `:` or `,`, the last one its title. */
const OWN_ANNOTATION = /^::(error|warning|notice) (?:[a-zA-Z]+=[^,:]*,)*title=[^,:]*::/;

/** What one channel's bytes did wrong (an empty list when nothing). */
export function channelViolations(
  text: string,
  options: {
    readonly colors?: boolean;
    readonly markdown?: boolean;
    readonly json?: boolean;
    readonly github?: boolean;
    readonly action?: boolean;
    /** A data file that keeps the input's values as they are (a manifest): only control characters count, not bidi or zero-width ones. */
    readonly dataFile?: boolean;
  } = {},
): string[] {
  const found: string[] = [];
  // gwops's own colour codes pass only with colours on, and never carry a marker of the input right after them.
  const stripped = options.colors === true ? text.replace(ERASE, '').replace(OWN_SGR, '') : text;
  if (options.colors === true && INPUT_SGR.test(text)) found.push('a colour code of the input passed');
  const raw = stripped.match(options.dataFile === true ? CONTROL : RAW);
  if (raw) found.push(`raw control characters: ${[...new Set(raw)].map((c) => `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(' ')}`);
  for (const line of text.split('\n')) {
    if (!line.startsWith('::')) continue;
    // gwops's own annotations (github format) start a line, always with a title (diagnostics-format.ts), the
    // properties escaped (no raw `:` or `,` inside a value); the action's own messages name it.
    const own =
      (options.github === true && OWN_ANNOTATION.test(line)) || (options.action === true && /^::(error|warning)::gwops (action: |plan|drift|validate|apply)/.test(line));
    if (!own) found.push(`a line starting with '::': ${line.slice(0, 80)}`);
  }
  if (/^(exitcode|report)=/m.test(text)) found.push('a line of the input that sets an output');
  if (options.json === true) {
    try {
      JSON.parse(text);
    } catch (error) {
      found.push(`not one JSON document: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (options.markdown === true) found.push(...liveMarkdown(text));
  return found;
}

/**
 * Markdown of the input that GitHub would render live: a link, an autolink, an `@mention`
 * or an HTML tag of the input outside code (code spans, fenced blocks, `<code>` elements).
 */
export function liveMarkdown(markdown: string): string[] {
  const outside = markdownOutsideCode(markdown);
  const found: string[] = [];
  if (/\]\(https:\/\/evil/.test(outside)) found.push('a live markdown link of the input');
  if (/<https:\/\/evil|(^|[\s(])https:\/\/evil/.test(outside)) found.push('a live autolink of the input');
  if (/@octo-victim/.test(outside)) found.push('a live @mention of the input');
  if (/<img\b/i.test(outside)) found.push('live HTML of the input');
  return found;
}

/** `markdown` without its fenced code blocks, code spans and `<code>` elements (what GitHub renders as markdown). */
export function markdownOutsideCode(markdown: string): string {
  const lines: string[] = [];
  let fence = '';
  for (const line of markdown.split('\n')) {
    const run = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === '' && run !== undefined) {
      fence = run;
      continue;
    }
    if (fence !== '') {
      if (run !== undefined && run[0] === fence[0] && run.length >= fence.length && line.trim() === run) fence = '';
      continue;
    }
    lines.push(withoutCodeSpans(line).replace(/<code>.*?<\/code>/g, ''));
  }
  return lines.join('\n');
}

/** One line without its code spans (CommonMark: a backtick run closed by a run of the same length). */
function withoutCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      out += line[i] ?? '';
      i += 1;
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n += 1;
    const fence = '`'.repeat(n);
    let close = line.indexOf(fence, i + n);
    while (close >= 0 && (line[close + n] === '`' || (close > 0 && line[close - 1] === '`'))) close = line.indexOf(fence, close + 1);
    if (close < 0) {
      out += fence;
      i += n;
    } else {
      i = close + n;
    }
  }
  return out;
}
