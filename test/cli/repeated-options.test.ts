/**
 * An option that takes one value, given twice (`--target a --target b`), is refused with a
 * usage error naming it, for every command and every such option (read off each
 * command's help, so a new option is covered): the last value is never used silently.
 * Repeatable options (`--kind`, `--filter`) still collect their values.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EXIT } from '../../src/core/exit-codes.js';

async function gwops(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    cwd: process.cwd(),
    isTTY: false,
    stdin: Readable.from([]),
  });
  return { code, stdout, stderr };
}

/** The commands of `gwops --help`. */
async function commands(): Promise<string[]> {
  const help = (await gwops(['--help'])).stdout;
  const section = help.slice(help.indexOf('Commands:'));
  return [...section.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1] ?? '').filter((c) => c !== 'help');
}

/** The single-value options of a command's help: flag and two values it accepts. */
async function singleValueOptions(command: string): Promise<{ flag: string; values: [string, string] }[]> {
  const help = (await gwops([command, '--help'])).stdout.replace(/\n {10,}/g, ' ');
  const out: { flag: string; values: [string, string] }[] = [];
  for (const line of help.split('\n')) {
    const m = /^ {2}(?:-\w, )?(--[\w-]+) <[^>]+>\s+(.*)$/.exec(line);
    if (!m?.[1] || /repeatable/.test(m[2] ?? '')) continue;
    const choices = /\(choices: "([^"]+)", "([^"]+)"/.exec(m[2] ?? '');
    out.push({ flag: m[1], values: choices?.[1] && choices[2] ? [choices[1], choices[2]] : ['1', '2'] });
  }
  return out;
}

/** True when `text` is one JSON document reporting a failed run. */
function isFailureDocument(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && (parsed as { valid?: unknown }).valid === false;
  } catch {
    return false;
  }
}

describe('options given twice', () => {
  it('every single-value option of every command refuses a second value', async () => {
    const found: string[] = [];
    const accepted: string[] = [];
    for (const command of await commands()) {
      for (const { flag, values } of await singleValueOptions(command)) {
        found.push(`${command} ${flag}`);
        const run = await gwops([command, flag, values[0], flag, values[1]]);
        // With json among the values, stdout holds the failure document (README.md "Output contract"), nothing else.
        const stdoutKept = run.stdout === '' || (values.includes('json') && isFailureDocument(run.stdout));
        if (run.code !== EXIT.error || !run.stderr.includes(`${flag} was given twice`) || !stdoutKept) accepted.push(`${command} ${flag}: exit ${run.code} ${run.stderr.slice(0, 120)}`);
      }
    }
    expect(found).toContain('plan --target');
    expect(found).toContain('validate --target');
    expect(found.length).toBeGreaterThan(20);
    expect(accepted).toEqual([]);
  });

  it('the example: --target a --target b names the option, runs nothing', async () => {
    const run = await gwops(['validate', '--target', 'a', '--target', 'b']);
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).toMatch(/^Error: --target was given twice: give it once/);
  });

  it('repeatable options still collect', async () => {
    const run = await gwops(['export', '--kind', 'nokind', '--kind', 'mapping', '--url', 'http://127.0.0.1:9/airlock/rest', '--out', '/nonexistent/x']);
    expect(run.stderr).not.toContain('given twice');
  });
});
