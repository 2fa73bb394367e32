/**
 * The view of `gwops init`: the paths it wrote (created or appended to) on stdout, one a
 * line, and on stderr what it did with each of its files and why, then what to do next.
 */
import { relative } from 'node:path';
import type { InitFile } from '../../../operations/init.js';
import type { CliIO } from '../../io.js';

/** `path` relative to `cwd`, or itself when that is shorter (a path far outside `cwd`), for a message. */
function shown(cwd: string, path: string): string {
  const near = relative(cwd, path);
  return near !== '' && near.length <= path.length ? near : path;
}

/** One line of the report on stderr for `file`, e.g. `appended .gitignore: node_modules/, .gwops/`. */
export function initFileLine(file: InitFile, cwd: string): string {
  const what = file.action === 'not-written' ? 'not written' : file.action;
  const lines = file.added === undefined ? '' : `: ${file.added.join(', ')}`;
  const note = file.note === undefined ? '' : ` (${file.note})`;
  return `${what.padEnd(11)} ${shown(cwd, file.path)}${lines}${note}\n`;
}

/**
 * Writes the report of `gwops init`: the written paths on stdout, a line per file on
 * stderr ({@link initFileLine}), then the next steps naming the project file and the
 * workflow where they are.
 */
export function renderInit(files: readonly InitFile[], projectFile: string, io: CliIO): void {
  io.stdout.write(files.filter((f) => f.action === 'created' || f.action === 'appended').map((f) => `${relative(io.cwd, f.path) || f.path}\n`).join(''));
  io.stderr.write(files.map((f) => initFileLine(f, io.cwd)).join(''));
  const workflow = files.find((f) => f.role === 'workflow');
  const project = files.find((f) => f.role === 'project');
  io.stderr.write(
    '\nNext: ' +
      (project === undefined || project.action === 'created' ? `adapt the target and the ownership scope in ${shown(io.cwd, projectFile)}, ` : '') +
      'set GWOPS_API_KEY, then run gwops validate and gwops plan' +
      (workflow !== undefined && workflow.action === 'created' ? `; replace your-org in ${shown(io.cwd, workflow.path)} with the owner of the gwops action.\n` : '.\n'),
  );
}
