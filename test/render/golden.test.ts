/**
 * Golden files: text, markdown and JSON renderings of fixed cases
 * (`test/reconcile/cases/<name>/plan.{txt,md,json}`). `UPDATE_GOLDEN=1` rewrites them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderJson, renderMarkdown, renderText } from '../../src/render/index.js';
import { caseNames, loadCase } from './cases.js';

const update = process.env.UPDATE_GOLDEN === '1';

function golden(url: URL, actual: string): void {
  if (update || !existsSync(url)) {
    writeFileSync(url, actual);
    if (!update) throw new Error(`golden file ${url.pathname} was missing and has been written: check it in`);
    return;
  }
  expect(actual).toBe(readFileSync(url, 'utf8'));
}

describe.each(caseNames())('golden case %s', (name) => {
  const c = loadCase(name);
  it('text', () => golden(new URL('plan.txt', c.dir), renderText(c.plan, { color: false })));
  it('markdown', () => golden(new URL('plan.md', c.dir), renderMarkdown(c.plan, { validatorMessages: c.validatorMessages })));
  it('json', () => golden(new URL('plan.json', c.dir), renderJson(c.plan)));
  it('json round-trips to the plan', () => expect(JSON.parse(renderJson(c.plan))).toEqual(c.plan));
});
