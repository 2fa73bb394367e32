/**
 * `docs/cli-reference.md`, made from the real CLI's `--help`: the program's help, then one
 * section per command. The command list is read off the program's own help (its
 * "Commands:" section, recursively for commands with subcommands), never written down
 * here, so a command registered in src/cli/main.ts appears without a change to this file.
 */
import { Readable } from 'node:stream';
import { main } from '#src/cli/main.js';
import type { CliIO } from '#src/cli/io.js';
import { EXIT } from '#src/core/exit-codes.js';
import { DOCS_COMMAND } from './manifest-reference.js';
import { cell, code, fence, headingAnchor, table } from './markdown.js';

/** The program's name, as its help spells it. */
const PROGRAM = 'gwops';

/** The help text of `gwops <command...> --help`. */
export type HelpReader = (command: readonly string[]) => Promise<string>;

/**
 * The names of the subcommands a help text lists under "Commands:" (aliases after `|`
 * dropped), in their order, without commander's own `help [command]`.
 */
export function commandNames(help: string): string[] {
  const lines = help.split('\n');
  const start = lines.findIndex((l) => /^Commands:\s*$/.test(l));
  if (start === -1) return [];
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const name = /^ {2}(\S+)/.exec(line)?.[1];
    if (name === undefined) continue; // a wrapped description: deeper indented
    const primary = name.split('|')[0] ?? name;
    if (primary !== 'help') names.push(primary);
  }
  return names;
}

/** The description of a help text: the paragraph after the usage line, unwrapped. */
export function helpDescription(help: string): string {
  const paragraphs = help.trim().split(/\n\s*\n/);
  const usage = paragraphs.findIndex((p) => p.startsWith('Usage:'));
  const next = usage === -1 ? undefined : paragraphs[usage + 1];
  if (next === undefined || /^[A-Z][\w ]*:\s*\n/.test(`${next}\n`)) return '';
  return next.split('\n').map((l) => l.trim()).join(' ');
}

/**
 * The exit codes a help text lists under "Exit codes:" (each command's own, src/cli/help.ts),
 * in their order; empty when it lists none.
 */
export function helpExitCodes(help: string): number[] {
  const section = help.split('\nExit codes:\n')[1] ?? '';
  return [...section.matchAll(/^ {2}(\d+) +\S/gm)].map((m) => Number(m[1]));
}

/**
 * Runs `fn` while `process.stdout` does not count as a terminal, so that commander wraps
 * help at its fixed 80 columns (in a terminal it takes the terminal's width) and the
 * generated text is the same wherever it is made.
 */
async function atFixedWidth<T>(fn: () => Promise<T>): Promise<T> {
  const stream = process.stdout;
  const own = Object.getOwnPropertyDescriptor(stream, 'isTTY');
  Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  try {
    return await fn();
  } finally {
    if (own) Object.defineProperty(stream, 'isTTY', own);
    else Reflect.deleteProperty(stream, 'isTTY');
  }
}

/**
 * The real CLI's help for `command` (`[]`: the program): `main` with `--help`, its stdout
 * captured, no environment, no terminal.
 * @throws Error when the help exits with another code than success
 */
export const programHelp: HelpReader = async (command) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
    cwd: process.cwd(),
    isTTY: false,
    canPrompt: false,
    stdin: Readable.from([]),
  };
  const status = await atFixedWidth(() => main(['node', PROGRAM, ...command, '--help'], io));
  if (status !== EXIT.ok) throw new Error(`${[PROGRAM, ...command, '--help'].join(' ')} exited with ${status}: ${err.join('')}`);
  return out.join('');
};

/** One command and its help. */
interface CommandHelp {
  readonly path: readonly string[];
  readonly help: string;
}

/** The program and every command below it, depth first in the order the help lists them. */
async function allHelp(read: HelpReader, path: readonly string[] = []): Promise<CommandHelp[]> {
  const help = await read(path);
  const below: CommandHelp[] = [];
  for (const name of commandNames(help)) below.push(...(await allHelp(read, [...path, name])));
  return [{ path, help }, ...below];
}

const title = (path: readonly string[]): string => [PROGRAM, ...path].join(' ');

/** `docs/cli-reference.md` from the help texts `read` gives. */
export async function cliReference(read: HelpReader = programHelp): Promise<string> {
  const commands = await allHelp(read);
  const overview = commands
    .filter((c) => c.path.length > 0)
    .map((c) => [`[${code(title(c.path))}](#${headingAnchor(title(c.path))})`, cell(helpDescription(c.help)), helpExitCodes(c.help).join(', ')]);
  const sections = commands.map((c) => {
    const description = helpDescription(c.help);
    return [`## ${title(c.path)}`, '', ...(description ? [description, ''] : []), fence(c.help.trimEnd(), 'text')].join('\n');
  });
  return [
    '# CLI reference',
    '',
    `<!-- Generated by \`${DOCS_COMMAND}\` (tools/docs/cli-reference.ts) from the CLI's own --help. Do not edit by hand. -->`,
    '',
    `The help of \`${PROGRAM}\` and of every command, as \`${PROGRAM} <command> --help\` prints it, collected by`,
    `\`${DOCS_COMMAND}\`. Regenerate it instead of editing it. The concepts behind the options are in the`,
    '[README](../README.md#concepts); CI use is in [ci-guide.md](ci-guide.md). Each command lists the exit codes it',
    'can return, and only those (the meaning of each in its section).',
    '',
    table(['Command', 'What it does', 'Exit codes'], overview),
    ...sections,
  ].join('\n');
}
