/**
 * `gwops demo` (`npm run demo`): the whole story on the embedded emulator, for a newcomer.
 * A plan, an apply, a clean drift check, a change made behind gwops's back, the drift it
 * causes, and the apply that heals it. Every step runs the real CLI over real HTTPS.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createColors } from 'picocolors';
import { startEmulator } from '../emulator/index.js';
import { withSession } from '../gateway/index.js';
import { EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY } from './example-keys.js';
import { DEMO_COMMIT_AUTHOR, DEMO_COMMIT_SUBJECT, demoRepository } from './repository.js';

/** The CI variables that name a commit or a run (src/operations/steps/commit-info.ts), left out of the demo's environment. */
const COMMIT_VARIABLES = ['GITHUB_SHA', 'GITHUB_SERVER_URL', 'GITHUB_REPOSITORY', 'GITHUB_RUN_ID', 'CI_COMMIT_SHA', 'CI_PIPELINE_URL'];

function withoutCommitVariables(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !COMMIT_VARIABLES.includes(name)));
}

/** The example project the demo applies (shipped in the package). */
export const DEMO_PROJECT = fileURLToPath(new URL('../../examples/demo/gwops.yaml', import.meta.url));

/** The login-app example's manifests (shipped in the package). */
const LOGIN_APP_MANIFESTS = fileURLToPath(new URL('../../examples/login-app/manifests', import.meta.url));

/** The project file of examples/login-app/gwops.yaml, with its `login` source at `jwksUrl` and its manifests at `manifests`. */
function loginAppProject(jwksUrl: string, caFile: string, manifests: string): string {
  return [
    `manifests: [${JSON.stringify(manifests)}]`,
    'jwks:',
    '  login:',
    `    url: ${JSON.stringify(jwksUrl)}`,
    `    caFile: ${JSON.stringify(caFile)}`,
    'ownership:',
    "  mapping: ['label==login-app-example']",
    "  back-end-group: ['name=@token-api-']",
    '',
  ].join('\n');
}

/** Most lines of a step's output the demo shows; a longer output is folded ({@link foldOutput}). */
export const STEP_LINES = 60;

/**
 * A long output folded to what a person reads in a demo: its paragraphs (blocks between
 * blank lines, e.g. one object of a plan) from the start while they fit in about half of
 * `limit` lines, one line saying how many blocks and lines are left out, and the short
 * paragraphs of its end (the plan's summary, the outcome). Output within `limit` lines
 * is returned as it is.
 */
export function foldOutput(text: string, limit: number): string {
  const lines = text.split('\n');
  if (lines.length <= limit) return text;
  const paragraphs: string[][] = [[]];
  for (const line of lines) {
    if (line.trim() === '') paragraphs.push([]);
    else paragraphs[paragraphs.length - 1]?.push(line);
  }
  const blocks = paragraphs.filter((p) => p.length > 0);
  let end = blocks.length;
  while (end > 0 && (blocks[end - 1]?.length ?? 0) <= 3 && blocks.length - end < 3) end -= 1;
  let start = 0;
  let used = 0;
  while (start < end && used + (blocks[start]?.length ?? 0) + 1 <= limit / 2) used += (blocks[start++]?.length ?? 0) + 1;
  const left = blocks.slice(start, end);
  if (left.length === 0) return text;
  const count = left.reduce((n, p) => n + p.length, 0);
  const note = `  … ${count} more lines left out of the demo (the command itself prints them all)`;
  return `${[...blocks.slice(0, start), [note], ...blocks.slice(end)].map((p) => p.join('\n')).join('\n\n')}\n`;
}

/** Where text goes: a stream, or a capture. */
export interface DemoSink {
  write(text: string): unknown;
}

/**
 * What the demo reads and writes of its process (the CLI's IO has these and more): the
 * story goes to `stdout`; each step runs with its own environment and directory.
 */
export interface DemoIO {
  readonly stdout: DemoSink;
  readonly stderr: DemoSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * Runs one CLI invocation with the step's IO (its environment, directory and the capture of
 * its output, to be laid over the CLI's own IO) and returns its exit code.
 */
export type CliRunner = (args: readonly string[], step: DemoIO) => Promise<number>;

/**
 * Runs the demo. Returns 0 when every step ended with the exit code the story expects.
 * The demo knows nothing of the CLI: the command (src/cli/commands/demo/) gives it the
 * CLI's entry point and whether to colour.
 * @param run the CLI entry point, as the command gives it
 * @param color true to colour the story (the CLI decides it, src/cli/color.ts)
 */
export async function runDemo(io: DemoIO, run: CliRunner, color: boolean): Promise<number> {
  const c = createColors(color);
  const dir = await mkdtemp(join(tmpdir(), 'gwops-demo-'));
  const emulator = await startEmulator({ port: 0, variant: 'latest', loginApp: true });
  try {
    const keyFile = join(dir, 'api-key');
    const caFile = join(dir, 'emulator-ca.pem');
    await writeFile(keyFile, emulator.apiKey, { mode: 0o600 });
    await writeFile(caFile, emulator.caCertificate ?? '');
    // The examples in a repository of their own, committed with a fixed message: the activation comment reads the same in every run.
    const repository = await demoRepository(dir);
    const demoProject = repository?.demoProject ?? DEMO_PROJECT;
    // Without git, the same comment is given as --comment.
    const comment = repository ? [] : ['--comment', `gwops apply: ${DEMO_COMMIT_SUBJECT} (${DEMO_COMMIT_AUTHOR})`];
    const env = {
      // The commit is the demo repository's, not one a CI run names.
      ...withoutCommitVariables(io.env),
      GWOPS_EXAMPLE_SHOP_TLS_KEY: EXAMPLE_SHOP_TLS_KEY,
      GWOPS_EXAMPLE_WILDCARD_TLS_KEY: EXAMPLE_WILDCARD_TLS_KEY,
      CI: 'true',
    };
    const demoIO: DemoIO = { ...io, env, cwd: repository?.cwd ?? io.cwd };
    const connection = ['--config', demoProject, '--url', emulator.url, '--api-key-file', keyFile, '--ca-file', caFile];
    let failures = 0;
    // The login-app example's project, pointed at this emulator's login application (its own
    // gwops.yaml names the emulator's default port).
    const loginProject = join(dir, 'login-app.yaml');
    await writeFile(loginProject, loginAppProject(emulator.loginApp?.jwksUrl ?? '', caFile, repository?.loginAppManifests ?? LOGIN_APP_MANIFESTS));
    const loginConnection = ['--config', loginProject, '--url', emulator.url, '--api-key-file', keyFile, '--ca-file', caFile];
    const hidden = new Set([...connection, ...loginConnection]);
    const step = async (title: string, explanation: string, args: readonly string[], expected: number): Promise<void> => {
      io.stdout.write(`\n${c.bold(c.cyan(`━━ ${title}`))}\n${c.dim(explanation)}\n${c.dim(`$ gwops ${args.filter((a) => !hidden.has(a)).join(' ')}`)}\n\n`);
      let output = '';
      // Its notes and warnings (stderr) belong to the story too: shown with the step's output.
      const capture = { write: (text: string) => (output += text) };
      const code = await run(['node', 'gwops', ...args], { ...demoIO, stdout: capture, stderr: { ...io.stderr, ...capture } });
      io.stdout.write(foldOutput(output, STEP_LINES));
      const ok = code === expected;
      if (!ok) failures += 1;
      io.stdout.write(`${ok ? c.green('✔') : c.red('✘')} exit code ${code}${ok ? '' : ` (expected ${expected})`}\n`);
    };

    io.stdout.write(
      `${c.bold('gwops demo')}: a local gateway emulator is running at ${emulator.url}\n` +
        `(variant ${emulator.variant}, self-signed TLS; its API key is in a temporary file, never printed).\n` +
        `The manifests are the example configuration in examples/manifests, ` +
        (repository ? `committed in a throw-away Git repository as "${DEMO_COMMIT_SUBJECT}".\n` : `used in place (git is not installed).\n`),
    );
    await step('1. Validate the manifests', 'Offline: schemas and semantic rules, no gateway contacted.', ['validate', '--config', demoProject], 0);
    await step(
      '2. Plan',
      'Diff against the live gateway, then execute in a throw-away session so the gateway\'s own validator checks it.',
      ['plan', ...connection, '--detailed-exitcode'],
      2,
    );
    await step('3. Apply', 'Executes the plan in one session and activates it with a comment derived from the commit (its SHA, subject and author).', ['apply', ...connection, '--yes', ...comment], 0);
    await step('4. Drift check', 'Nothing changed since the apply: exit 0.', ['drift', ...connection], 0);

    io.stdout.write(`\n${c.bold(c.cyan('━━ 5. A change behind gwops\'s back'))}\n`);
    await withSession({ url: emulator.url, apiKey: emulator.apiKey, ca: emulator.caCertificate }, async (session) => {
      await session.loadActive();
      const [mapping] = await session.list('mappings', ['name==shop-checkout']);
      const [target] = mapping ? [mapping] : await session.list('mappings', ['labels==managed-by-gwops']);
      if (target) {
        await session.update('mappings', target.id, { type: 'mapping', attributes: { threatHandling: 'NOTIFY' } });
        io.stdout.write(`  someone set threatHandling of mapping '${String(target.attributes.name)}' to NOTIFY\n`);
      }
      const [group] = await session.list('back-end-groups', ['name=@example-']);
      const extra = await session.create('mappings', {
        type: 'mapping',
        attributes: { name: 'example-hotfix', labels: ['managed-by-gwops'], entryPath: { value: '/hotfix/' } },
      });
      if (group) await session.link('mappings', extra.id, 'back-end-groups', [{ type: 'back-end-group', id: group.id }]);
      io.stdout.write(`  someone added mapping 'example-hotfix' that no manifest declares\n`);
      await session.activate('manual hotfix in the configuration UI');
      io.stdout.write('  and activated it.\n');
    });

    await step('6. Drift check', 'The nightly drift run notices both changes: exit 2.', ['drift', ...connection], 2);
    await step('7. Apply heals', 'Apply with --prune restores the attribute and removes the undeclared mapping.', ['apply', ...connection, '--yes', '--prune', ...comment], 0);
    await step('8. Drift check', 'Back in sync: exit 0.', ['drift', ...connection], 0);

    await step(
      '9. Token keys from the login application',
      'examples/login-app: two API mappings verify tokens with the key { fromJwks: { source: login, alg: RS_256 } } names; the JWKS is fetched once.',
      ['apply', ...loginConnection, '--yes', ...comment],
      0,
    );
    io.stdout.write(`\n${c.bold(c.cyan('━━ 10. The login application rotates its signing keys'))}\n`);
    const retired = emulator.loginApp?.currentKid() ?? '';
    const current = emulator.loginApp?.rotate() ?? '';
    io.stdout.write(`  ${current} is now the current key; ${retired} stays published for its grace period.\n`);
    await step('11. Drift check', 'Every mapping that uses the key is stale: exit 2, old and new kid by thumbprint.', ['drift', ...loginConnection], 2);
    await step('12. Apply heals', 'The new key is rolled out to every mapping that names the source.', ['apply', ...loginConnection, '--yes', ...comment], 0);

    io.stdout.write(
      failures === 0
        ? `\n${c.green(c.bold('Demo complete.'))} Every step ended as expected.\n`
        : `\n${c.red(c.bold(`Demo finished with ${failures} unexpected result(s).`))}\n`,
    );
    return failures === 0 ? 0 : 1;
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}
