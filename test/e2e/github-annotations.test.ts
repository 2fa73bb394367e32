/**
 * `gwops validate --format github` in a GitHub Actions job: the runner reads the `file=` of
 * an annotation relative to the repository root (GITHUB_WORKSPACE), whatever directory the
 * step ran in. With `working-directory: examples` the annotation must still land on the
 * manifest's line, so the path is given from the workspace when the file lies inside it.
 * The real process, with a manifest error in a subdirectory of a temporary workspace.
 */
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startGwops } from './spawn.js';

const BAD = 'apiVersion: gwops/v1\nkind: back-end-group\nname: gh\nattributes: { nope: 1 }\n';

let workspace: string;
let project: string;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'gwops-workspace-')));
  project = join(workspace, 'infra', 'gateway');
  await mkdir(join(project, 'manifests'), { recursive: true });
  await writeFile(join(project, 'manifests', 'bad.yaml'), BAD);
  await writeFile(join(project, 'gwops.yaml'), 'manifests: [manifests]\n');
});

/** Runs `gwops validate --format github` in the project directory with `env`; returns stdout and the exit code. */
async function annotations(env: Record<string, string>, args: string[] = []): Promise<{ code: number; stdout: string }> {
  const proc = startGwops(['validate', '--format', 'github', ...args], env, project);
  const code = await proc.exited;
  return { code, stdout: proc.stdout };
}

describe('validate --format github: annotation paths', () => {
  it('are relative to GITHUB_WORKSPACE when the step runs in a subdirectory of it', async () => {
    const r = await annotations({ GITHUB_WORKSPACE: workspace });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("::error file=infra/gateway/manifests/bad.yaml,line=4,col=15,title=unknown-attribute::unknown attribute 'nope' in back-end-group 'gh'\n");
  });

  it('accept a GITHUB_WORKSPACE written with a trailing slash or through ..', async () => {
    const r = await annotations({ GITHUB_WORKSPACE: `${join(project, '..', '..')}/` });
    expect(r.stdout).toContain('::error file=infra/gateway/manifests/bad.yaml,line=4,');
  });

  it('are relative to the working directory without GITHUB_WORKSPACE (outside Actions)', async () => {
    const r = await annotations({});
    expect(r.stdout).toContain('::error file=manifests/bad.yaml,line=4,');
  });

  it('stay relative to the working directory for a file outside GITHUB_WORKSPACE', async () => {
    const elsewhere = await realpath(await mkdtemp(join(tmpdir(), 'gwops-other-workspace-')));
    const r = await annotations({ GITHUB_WORKSPACE: elsewhere });
    expect(r.stdout).toContain('::error file=manifests/bad.yaml,line=4,');
  });

  it('leave the text format relative to the working directory', async () => {
    const proc = startGwops(['validate'], { GITHUB_WORKSPACE: workspace }, project);
    expect(await proc.exited).toBe(1);
    expect(proc.stdout).toMatch(/^manifests\/bad\.yaml:4:15: error: /m);
  });
});
