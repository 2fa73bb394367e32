/**
 * Every link of README.md, CONTRIBUTING.md and docs/*.md points into the repository: to a
 * file or folder that exists and, with `#anchor`, to a heading of that file. README.md
 * links nowhere outside the repository (relative links only), and its Documentation list
 * names the pages of docs/ and CONTRIBUTING.md.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingAnchors, proseLines } from '../../tools/docs/markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The pages whose links are checked. */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** The pages README.md's Documentation list links. */
const DOCUMENTATION = [
  'docs/manifest-reference.md',
  'docs/cli-reference.md',
  'docs/ci-guide.md',
  'docs/adoption-guide.md',
  'docs/gateway-api.md',
  'docs/architecture.md',
  'CONTRIBUTING.md',
];

interface Link {
  readonly target: string;
  readonly line: number;
}

/** Inline links, images and reference definitions outside code blocks and code spans. */
function linksOf(markdown: string): Link[] {
  const out: Link[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/(`+)[^`]*?\1/g, '');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1] ?? '', line: line + 1 });
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose);
    if (definition?.[1] !== undefined) out.push({ target: definition[1], line: line + 1 });
    for (const m of prose.matchAll(/<((?:https?|mailto|ftp):[^>\s]+)>/g)) out.push({ target: m[1] ?? '', line: line + 1 });
  }
  return out;
}

/** Bare URLs in prose that GitHub would turn into links. */
function bareUrls(markdown: string): Link[] {
  const out: Link[] = [];
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/(`+)[^`]*?\1/g, '').replace(/\]\([^)]*\)/g, ']');
    for (const m of prose.matchAll(/\b(?:https?:\/\/|www\.)\S+/g)) out.push({ target: m[0], line: line + 1 });
  }
  return out;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = headingAnchors(readFileSync(file, 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Why `target`, linked from `page`, does not resolve; undefined when it does. */
function problem(page: string, target: string): string | undefined {
  if (isExternal(target)) return page === 'README.md' ? 'points outside the repository' : undefined;
  if (target.startsWith('/')) return 'is absolute: use a relative link';
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
  if (!file.startsWith(ROOT)) return 'leaves the repository';
  if (!existsSync(file)) return `names ${relative(ROOT, file)}, which does not exist`;
  if (anchor === undefined) return undefined;
  if (!statSync(file).isFile() || !file.endsWith('.md')) return `has an anchor into ${relative(ROOT, file)}, which is no markdown file`;
  return anchorsOf(file).has(anchor) ? undefined : `names #${anchor}, which is no heading of ${relative(ROOT, file)}`;
}

describe('links', () => {
  it('the finder sees inline, reference and angle links, not code', () => {
    const text = ['[a](x.md) and [b](<y.md#z>) `[c](no.md)`', '```', '[d](no.md)', '```', '[e]: ref.md', '<https://example.com>'].join('\n');
    expect(linksOf(text).map((l) => l.target)).toEqual(['x.md', 'y.md#z', 'ref.md', 'https://example.com']);
  });

  it.each(PAGES)('%s: every link resolves inside the repository', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const broken = linksOf(text).flatMap((link) => {
      const why = problem(page, link.target);
      return why === undefined ? [] : [`${page}:${link.line}: ${link.target} ${why}`];
    });
    if (page === 'README.md') broken.push(...bareUrls(text).map((u) => `${page}:${u.line}: ${u.target} points outside the repository`));
    expect(broken).toEqual([]);
  });

  it('README.md links the documentation pages and CONTRIBUTING.md', () => {
    const targets = new Set(linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((l) => l.target.split('#')[0]));
    for (const page of DOCUMENTATION) expect([...targets], page).toContain(page);
  });
});
