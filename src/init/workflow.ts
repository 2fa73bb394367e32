/**
 * The GitHub workflow `gwops init` writes, placed for where the project lies in its Git
 * repository (docs/ci-guide.md "A project in a subdirectory"). GitHub runs only the
 * workflows in `.github/workflows/` at the repository's root, so for a project in a
 * subdirectory the workflow goes there and runs gwops in the project's directory. Pure.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { trimTrailing } from '../core/linear-text.js';

/** Where the workflow of `gwops init` is written, relative to the repository's root. */
export const WORKFLOW_PATH = '.github/workflows/gwops.yml';

/** A step that runs the gwops action: `<owner>/gwops@<ref>`, or `./` in gwops's own repository. */
const GWOPS_ACTION = /(^|\/)gwops@|^\.\/$/;

/** Whether a step's `uses` value names the gwops action. */
const isGwopsStep = (uses: unknown): boolean => typeof uses === 'string' && GWOPS_ACTION.test(uses);

/**
 * `text` as a literal part of a GitHub path filter: the characters the filter syntax gives
 * a meaning (`*`, `?`, `+`, `[`, `]`, `!` and the backslash) escaped with a backslash.
 */
export function literalPathPattern(text: string): string {
  return text.replace(/[*?+[\]!\\]/g, (c) => `\\${c}`);
}

/**
 * Why the workflow cannot run gwops in `dir`, or undefined when it can: GitHub would read
 * `${{` in a value as the start of an expression, whatever the YAML quoting.
 */
export function workflowDirectoryProblem(dir: string): string | undefined {
  return dir.includes('${{') ? `its path ${JSON.stringify(dir)} holds "\${{", which GitHub reads as an expression` : undefined;
}

/** Whether the workflow `text` has a step of the gwops action running in `dir` (its `working-directory`, `.` when it has none; '' or `.` for the root). */
export function workflowRunsIn(text: string, dir: string): boolean {
  const want = dir === '' ? '.' : dir;
  const doc = parseDocument(text);
  const jobs = doc.get('jobs');
  for (const job of isMap(jobs) ? jobs.items : []) {
    const steps = isMap(job.value) ? job.value.get('steps') : undefined;
    for (const step of isSeq(steps) ? steps.items : []) {
      if (!isMap(step) || !isGwopsStep(step.get('uses'))) continue;
      const inputs = step.get('with');
      const at = isMap(inputs) ? inputs.get('working-directory') : undefined;
      const normal = trimTrailing((typeof at === 'string' ? at : '.').replace(/^\.\/(?=.)/, ''), '/') || '.';
      if (normal === want) return true;
    }
  }
  return false;
}

/** A file or folder of a project, relative to the repository's root with `/` between names ('' for the root itself), for a `paths:` filter. */
export interface ProjectPath {
  readonly path: string;
  /** A folder: the filter names everything below it (`<path>/**`). */
  readonly directory: boolean;
}

/**
 * The workflow of `gwops init` for a project in `dir` of its repository.
 * @param template the text of templates/init/workflow.yml (paths in it are relative to the project)
 * @param dir the project's directory relative to the repository's root, with `/` between
 *   names ('' for the root); it must have no {@link workflowDirectoryProblem}
 * @param own the files and folders the project reads, when its project file exists already
 *   and names others than the template's (its `manifests` and overlays); undefined for the template's own
 * @returns `template` unchanged for the root and no `own`; else the template in which every
 *   step of the gwops action has `working-directory: <dir>` (not for the root), and every
 *   `paths:` / `paths-ignore:` filter names `own`, or the template's entries under `<dir>/`
 *   (the workflow's own path stays, being at the root), its comments and layout kept
 */
export function workflowFor(template: string, dir: string, own?: readonly ProjectPath[]): string {
  if (dir === '' && own === undefined) return template;
  const doc = parseDocument(template);
  const prefix = dir === '' ? '' : `${literalPathPattern(dir)}/`;
  const ownEntries = own?.map((p) => (p.path === '' ? '**' : `${literalPathPattern(p.path)}${p.directory ? '/**' : ''}`));
  const on = doc.get('on');
  if (isMap(on)) {
    for (const event of on.items) {
      if (!isMap(event.value)) continue;
      for (const filter of event.value.items) {
        if (!isScalar(filter.key) || (filter.key.value !== 'paths' && filter.key.value !== 'paths-ignore') || !isSeq(filter.value)) continue;
        const seq = filter.value;
        if (ownEntries !== undefined) {
          const keep = seq.items.filter((entry) => isScalar(entry) && entry.value === WORKFLOW_PATH);
          seq.items = [...ownEntries.map((entry) => doc.createNode(entry)), ...keep];
          continue;
        }
        for (const entry of seq.items) {
          if (isScalar(entry) && typeof entry.value === 'string' && entry.value !== WORKFLOW_PATH) entry.value = `${prefix}${entry.value}`;
        }
      }
    }
  }
  if (dir === '') return doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
  const jobs = doc.get('jobs');
  for (const job of isMap(jobs) ? jobs.items : []) {
    const steps = isMap(job.value) ? job.value.get('steps') : undefined;
    for (const step of isSeq(steps) ? steps.items : []) {
      if (!isMap(step)) continue;
      if (!isGwopsStep(step.get('uses'))) continue;
      const inputs = step.get('with');
      if (isMap(inputs)) inputs.set('working-directory', dir);
      else step.set('with', doc.createNode({ 'working-directory': dir }));
    }
  }
  return doc.toString({ flowCollectionPadding: false, lineWidth: 0 });
}
