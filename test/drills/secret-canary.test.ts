/**
 * Drill "secret canary": a unique canary value in every place a secret or key lives —
 * both secret source kinds (`{ fromEnv }`, `{ fromFile }`), `GWOPS_API_KEY`, another
 * target's `apiKeyEnv` and `apiKeyFile` — and every key or secret variable injected through
 * `${VAR}` into every attribute type (string, enum, boolean, integer, list item, secret),
 * an object name and a relationship. Every command (validate, graph, plan, apply, drift,
 * export, targets, history) in every format, on success and failure paths, against an
 * emulator behind a recording proxy. Counted: canaries in stdout and stderr, in the files
 * written (plan file, exported manifests, backup names), and canaries of keys that belong
 * to no target of the run in any request (path, query or body) that reached the gateway.
 * The sample (`npm test`) draws a few injections and commands; `GWOPS_DRILLS=full` runs
 * every injection through every command.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { Run } from './support.js';
import { leakedSecrets, prng, sample, showsCrash, startDrillGateway } from './support.js';

/** The variables `${VAR}` may try to read: the run's key, another target's key, the global key, a { fromEnv } secret. */
const VARIABLES = ['OWN_KEY', 'OTHER_KEY', 'GWOPS_API_KEY', 'SHOP_JWS_SECRET'] as const;

/** Where an injection goes: a slot of the injected mapping and how the reference is written there. */
const SLOTS = ['name', 'string', 'enum', 'boolean', 'integer', 'list item', 'relationship', 'secret'] as const;
type Slot = (typeof SLOTS)[number];

const BACKEND = 'apiVersion: gwops/v1\nkind: back-end-group\nname: canary-backend\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: canary.internal, port: 8080 }]\n';

function mapping(name: string, path: string, jwsKey: string, slots: Partial<Record<Slot, string>> = {}): string {
  return `apiVersion: gwops/v1
kind: mapping
name: ${slots.name ?? name}
attributes:
  entryPath: { value: /${path}/, priority: ${slots.integer ?? '30'} }
  backendPath: ${slots.string ?? '/'}
  threatHandling: ${slots.enum ?? 'BLOCK'}
  enableMaintenancePage: ${slots.boolean ?? 'false'}
  labels: [${slots['list item'] ?? 'drill'}]
  access: { tokenVerification: { signatureCheckEnforced: true, jwsAlgorithm: HS_256, jwsKey: ${slots.secret ?? jwsKey} } }
relationships:
  back-end-groups: [${slots.relationship ?? 'canary-backend'}]
`;
}

/** The clean manifests: both secret source kinds. */
function cleanManifests(): Record<string, string> {
  return {
    'backend.yaml': BACKEND,
    'env.yaml': mapping('canary-env', 'canary-env', '{ fromEnv: SHOP_JWS_SECRET }'),
    'file.yaml': mapping('canary-file', 'canary-file', '{ fromFile: jws.secret }'),
  };
}

/** The injected mapping: `${variable}` in `slot`. */
function injected(variable: string, slot: Slot): string {
  const reference = slot === 'name' ? `canary-\${${variable}}` : slot === 'string' ? `"/app/\${${variable}}/"` : `"\${${variable}}"`;
  return mapping('canary-inject', 'canary-inject', '{ fromEnv: SHOP_JWS_SECRET }', { [slot]: reference });
}

async function filesUnder(dir: string): Promise<{ names: string[]; texts: string[] }> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const names: string[] = [];
  const texts: string[] = [];
  for (const e of entries) {
    names.push(e.name);
    if (e.isFile()) texts.push(await readFile(join(e.parentPath, e.name), 'utf8'));
  }
  return { names, texts };
}

describe('drill: secret canary', () => {
  it('no canary of any secret or key in any output, written file or request to another gateway', async () => {
    const seed = drillSeed(7);
    const full = drillMode() === 'full';
    const random = prng(seed);
    const g = await startDrillGateway();
    const tag = fc.sample(fc.stringMatching(/^[a-z0-9]{10}$/), { seed, numRuns: 1 })[0] ?? 'x';
    const canary = {
      globalKey: `cnry-global-${tag}`,
      otherEnvKey: `cnry-other-env-${tag}`,
      otherFileKey: `cnry-other-file-${tag}`,
      fromEnv: `cnry-from-env-${tag}`,
      fromFile: `cnry-from-file-${tag}`,
    };
    /** Keys that belong to no target of the run: never in a request. */
    const foreign = [canary.globalKey, canary.otherEnvKey, canary.otherFileKey];
    const all = [...Object.values(canary), ...g.secrets];
    const requests: string[] = [];
    g.intercept = (call) => {
      requests.push(`${call.method} ${call.path} ${call.body}`);
      return undefined;
    };
    const rows: (string | number)[][] = [];
    try {
      const dir = g.dir;
      await writeFile(join(dir, 'other.key'), `${canary.otherFileKey}\n`);
      const manifests = join(dir, 'manifests');
      await mkdir(manifests, { recursive: true });
      for (const [file, text] of Object.entries(cleanManifests())) await writeFile(join(manifests, file), text);
      await writeFile(join(manifests, 'jws.secret'), `${canary.fromFile}\n`);
      const project = join(dir, 'gwops.yaml');
      await writeFile(
        project,
        `manifests: [manifests]\ntargets:\n  own: { url: '${g.proxy.url}', apiKeyEnv: OWN_KEY }\n` +
          "  other: { url: 'http://other.invalid/airlock/rest', apiKeyEnv: OTHER_KEY }\n" +
          "  filed: { url: 'http://filed.invalid/airlock/rest', apiKeyFile: other.key }\n",
      );
      const baseEnv = { OWN_KEY: g.emulator.apiKey, OTHER_KEY: canary.otherEnvKey, SHOP_JWS_SECRET: canary.fromEnv };
      const withGlobal = { ...baseEnv, GWOPS_API_KEY: canary.globalKey };
      const target = ['--config', project, '--target', 'own'];
      const planFile = join(dir, 'plan.json');
      const exportDir = join(dir, 'export');
      const backups = join(dir, 'backups');

      type Command = readonly [label: string, args: readonly string[], env: Record<string, string>];
      /** Commands on the clean manifests; success unless the label says refused. */
      const clean: Command[] = [
        ['validate (text)', ['validate', '--config', project], withGlobal],
        ['validate (json)', ['validate', '--config', project, '--format', 'json'], withGlobal],
        ['validate (github)', ['validate', '--config', project, '--format', 'github'], withGlobal],
        ['graph (mermaid)', ['graph', '--config', project], withGlobal],
        ['graph (dot)', ['graph', '--config', project, '--format', 'dot'], withGlobal],
        ['targets (text)', ['targets', '--config', project], withGlobal],
        ['targets (json)', ['targets', '--config', project, '--format', 'json'], withGlobal],
        ['plan (text, --out)', ['plan', ...target, '--out', planFile], baseEnv],
        ['plan (markdown)', ['plan', ...target, '--format', 'markdown'], baseEnv],
        ['plan (json)', ['plan', ...target, '--format', 'json'], baseEnv],
        ['apply (json, --backup-dir)', ['apply', '--yes', ...target, '--format', 'json', '--backup-dir', backups], baseEnv],
        ['drift (text)', ['drift', ...target], baseEnv],
        ['drift (markdown)', ['drift', ...target, '--format', 'markdown'], baseEnv],
        ['drift (json)', ['drift', ...target, '--format', 'json'], baseEnv],
        ['history (text)', ['history', ...target], baseEnv],
        ['history (json)', ['history', ...target, '--format', 'json'], baseEnv],
        ['export (json)', ['export', ...target, '--out', exportDir, '--format', 'json'], baseEnv],
        ['plan refused: GWOPS_API_KEY next to the target key', ['plan', ...target], withGlobal],
        ['history refused: GWOPS_API_KEY next to the target key', ['history', ...target], withGlobal],
        ['plan refused: another target unreachable', ['plan', '--config', project, '--target', 'other', '--timeout', '2'], baseEnv],
        ['export refused: key file of another target', ['export', '--config', project, '--target', 'filed', '--out', join(dir, 'export-2'), '--timeout', '2'], baseEnv],
      ];
      const refused = (label: string): boolean => label.includes('refused');
      const runOne = async (label: string, args: readonly string[], env: Record<string, string>, expectFailure: boolean): Promise<Run> => {
        const before = requests.length;
        const outputsBefore = g.outputs.length;
        const run = await g.cli(args, env);
        expect(showsCrash(run), `${label}: ${run.stderr}`).toBe(false);
        if (expectFailure) expect(run.code, `${label}: ${run.stdout}${run.stderr}`).not.toBe(0);
        else expect(run.code, `${label}: ${run.stderr}`).toBeLessThanOrEqual(2);
        const inRequests = leakedSecrets(requests.slice(before), foreign).length;
        rows.push([label, 1, leakedSecrets(g.outputs.slice(outputsBefore), all).length, inRequests]);
        return run;
      };
      // The runs that write files always run (what they write is scanned below); a sample of the others.
      const writes = (c: Command): boolean => c[1].includes('--out') || c[1].includes('--backup-dir');
      const cleanRuns = full ? clean : [...clean.filter(writes), ...sample(clean.filter((c) => !writes(c)), 5, random)];
      for (const [label, args, env] of cleanRuns) await runOne(label, args, env, refused(label));

      // Injections: every key or secret variable in every slot; each through the commands that read manifests.
      const injections = VARIABLES.flatMap((variable) => SLOTS.map((slot) => [variable, slot] as const));
      const failing: readonly (readonly [string, readonly string[]])[] = [
        ['validate (text)', ['validate', '--config', project]],
        ['validate (json)', ['validate', '--config', project, '--format', 'json']],
        ['validate (github)', ['validate', '--config', project, '--format', 'github']],
        ['graph (mermaid)', ['graph', '--config', project]],
        ['graph (dot)', ['graph', '--config', project, '--format', 'dot']],
        ['plan (text, --out)', ['plan', ...target, '--out', join(dir, 'plan-injected.json')]],
        ['plan (markdown)', ['plan', ...target, '--format', 'markdown']],
        ['plan (json)', ['plan', ...target, '--format', 'json']],
        ['apply (text)', ['apply', '--yes', ...target]],
        ['apply (json)', ['apply', '--yes', ...target, '--format', 'json']],
        ['drift (text)', ['drift', ...target]],
        ['drift (json)', ['drift', ...target, '--format', 'json']],
      ];
      const chosen = full ? injections : sample(injections, 3, random);
      const inject = join(manifests, 'inject.yaml');
      for (const [variable, slot] of chosen) {
        await writeFile(inject, injected(variable, slot));
        const commands = full ? failing : sample(failing, 2, random);
        for (const [label, args] of commands) {
          // The global key is in the environment only where no connection is made (it would refuse the target's key first).
          const env = label.startsWith('validate') || label.startsWith('graph') ? withGlobal : baseEnv;
          await runOne(`\${${variable}} in ${slot}: ${label}`, args, env, true);
        }
      }
      await rm(inject);

      const plan = await readFile(planFile, 'utf8');
      rows.push(['saved plan file', 1, leakedSecrets([plan], all).length, 0]);
      const exported = await filesUnder(exportDir);
      rows.push(['exported manifests (names and contents)', 1, leakedSecrets([...exported.names, ...exported.texts], all).length, 0]);
      const backed = await filesUnder(backups);
      expect(backed.names.length).toBeGreaterThan(0);
      rows.push(['backup file names', 1, leakedSecrets(backed.names, all).length, 0]);
      rows.push(["the emulator's request log", 1, leakedSecrets([JSON.stringify(g.emulator.requestLog)], all).length, 0]);
    } finally {
      await g.close();
    }
    const violations = recordDrill({
      id: 'secret-canary',
      title: 'Secret canary',
      description:
        'A unique canary in both secret source kinds ({ fromEnv }, { fromFile }), GWOPS_API_KEY, and another target\'s ' +
        'apiKeyEnv and apiKeyFile; each key or secret variable also written as ${VAR} into an object name, a relationship ' +
        'and every attribute type. Every command and format on success and failure paths, against an emulator behind a ' +
        'recording proxy. Counted: canaries (and the run\'s own API keys) in stdout, stderr and the files written, and ' +
        'keys of no target of the run in any request the gateway received.',
      seed,
      columns: ['run', 'runs', 'canaries in output', 'foreign keys in requests'],
      rows,
      mustBeZero: ['canaries in output', 'foreign keys in requests'],
    });
    expect(violations).toEqual([]);
  }, 600_000);
});
