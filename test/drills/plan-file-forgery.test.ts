/**
 * Drill "plan-file forgery" (docs/architecture.md "Saved plans": bound to the checkout,
 * signed plan files): a real plan file (`plan --out` inside a project: updates, creates and
 * links) is forged at random by fast-check the way that fools the check of the plan made
 * again: a value of the desired state (an attribute leaf or an object's name) replaced by
 * another everywhere the file holds it, desired state, steps and calls alike, so that the
 * file's plan is still the plan its desired state makes. Each forgery is applied inside
 * the project (the checkout's manifests bind it); the signed copy of the file (with a
 * plan-signing key) gets random byte edits (changed, inserted, deleted bytes, in the file
 * or in its signature) and the same consistent forgeries, and is applied outside any
 * project with the key (the signature binds it).
 *
 * The oracle is what the gateway received: the proxy records every mutating request and
 * answers the activation itself. A forged file must be refused with exit 1 and one error
 * line, with no mutating request sent; the unedited file must send its plan (so the
 * oracle can see one).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { Run } from './support.js';
import { leakedSecrets, showsCrash, startDrillGateway, within, writeDrillManifests } from './support.js';

const FULL = drillMode() === 'full';
const SEED = drillSeed(4141);
/** Trials per family of forgery. */
const RUNS = FULL ? 100 : 3;
const SIGNING_KEY = 'drill-plan-signing-key-5e1f0a2c';

const FAMILIES = ['consistent edit, in the project', 'consistent edit, signed', 'byte edit, signed', 'signature byte edit'] as const;
type Family = (typeof FAMILIES)[number];

interface Figures {
  trials: number;
  refused: number;
  sent: number;
  badExit: number;
  crashes: number;
  secrets: number;
}

const empty = (): Figures => ({ trials: 0, refused: 0, sent: 0, badExit: 0, crashes: 0, secrets: 0 });

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Every string and number leaf of the desired objects' attributes, and every object's name,
 * that the plan's steps send too: the values a consistent forgery replaces (a value that
 * only the desired state holds makes the plan made again differ from the file's, which the
 * older check already refuses).
 */
function desiredValues(file: Json): (string | number)[] {
  const out = new Set<string | number>();
  const walk = (value: Json): void => {
    if (typeof value === 'string' || typeof value === 'number') out.add(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  const objects = ((file as { desired?: { objects?: Json[] } }).desired?.objects ?? []) as { name?: Json; attributes?: Json }[];
  for (const object of objects) {
    if (typeof object.name === 'string') out.add(object.name);
    walk(object.attributes ?? null);
  }
  const steps = JSON.stringify((file as { steps?: Json }).steps ?? null);
  return [...out].filter((v) => v !== '' && replaceEverywhere(steps, v, '\u0000') !== steps);
}

/** `text` with every JSON token of `from` replaced by `to` (a string token with its quotes; a number where a value stands). */
function replaceEverywhere(text: string, from: string | number, to: string | number): string {
  if (typeof from === 'string') return text.split(JSON.stringify(from)).join(JSON.stringify(to));
  return text.replace(new RegExp(`(?<=[:\\[,])${String(from).replace('.', '\\.')}(?=[,\\]}])`, 'g'), JSON.stringify(to));
}

/** One mutating request as the proxy saw it. */
interface Sent {
  readonly method: string;
  readonly path: string;
}

describe('drill: plan-file forgery', () => {
  it('a consistently edited plan file is refused inside the project, and a signed one after any byte edit, sending nothing', async () => {
    const gateway = await startDrillGateway();
    const figures = new Map<Family, Figures>(FAMILIES.map((f) => [f, empty()]));
    const samples: string[] = [];
    gateway.secrets.push(SIGNING_KEY);
    try {
      const m = await writeDrillManifests(gateway.dir, 'pff', 4);
      const project = join(gateway.dir, 'project');
      await mkdir(join(project, 'm'), { recursive: true });
      await writeFile(join(project, 'gwops.yaml'), 'manifests: [m]\n');
      await copyFile(join(m.target, 'all.yaml'), join(project, 'm', 'all.yaml'));
      const config = ['--config', join(project, 'gwops.yaml')];
      const base = await gateway.cli(['apply', m.base, ...gateway.direct, '--yes', '--comment', 'base']);
      expect(base.code, base.stderr).toBe(0);
      const unsigned = join(gateway.dir, 'plan.json');
      const signed = join(gateway.dir, 'signed.json');
      const keyed = { GWOPS_PLAN_SIGNING_KEY: SIGNING_KEY };
      const planned = await gateway.cli(['plan', ...config, ...gateway.viaProxy, '--no-server-check', '--out', unsigned]);
      expect(planned.code, planned.stderr).toBe(0);
      const signedRun = await gateway.cli(['plan', ...config, ...gateway.viaProxy, '--no-server-check', '--out', signed], keyed);
      expect(signedRun.code, signedRun.stderr).toBe(0);
      const originals = { unsigned: await readFile(unsigned), signed: await readFile(signed), signature: await readFile(`${signed}.sig`) };
      const values = desiredValues(JSON.parse(originals.unsigned.toString('utf8')) as Json);
      expect(values.length).toBeGreaterThan(10);

      let sent: Sent[] = [];
      let activations = 0;
      gateway.intercept = (call) => {
        if (call.path.endsWith('/configuration/configurations/activate')) {
          activations += 1;
          return { reply: { status: 403, body: '{"errors":[{"status":"403","code":"FORBIDDEN","title":"the drill never activates"}]}' } };
        }
        if (call.method !== 'GET' && !call.path.includes('/session/') && !call.path.endsWith('/load-active')) sent.push({ method: call.method, path: call.path });
        return undefined;
      };
      const apply = async (args: readonly string[], env: Record<string, string> = {}): Promise<{ run: Run; sent: Sent[]; activated: boolean }> => {
        sent = [];
        activations = 0;
        const run = await within(60_000, 'apply --plan', gateway.cli(['apply', '--yes', ...args, ...gateway.viaProxy], env));
        return { run, sent, activated: activations > 0 };
      };
      // The oracle sees a plan: the unedited files send it (both refused at the activation only).
      const reference = await apply([...config, '--plan', unsigned]);
      expect(reference.sent.length, reference.run.stderr).toBeGreaterThan(5);
      expect(reference.activated).toBe(true);
      const referenceSigned = await apply(['--plan', signed], keyed);
      expect(referenceSigned.sent).toEqual(reference.sent);

      const forgedFile = join(gateway.dir, 'forged.json');
      const trial = fc.record({
        value: fc.nat(),
        replacement: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 65_000 }), fc.constantFrom('attacker.example', '/', '/admin/', 'HTTPS')),
        bytes: fc.array(fc.record({ at: fc.nat(), op: fc.constantFrom('change', 'insert', 'delete'), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 3 }),
      });
      for (const family of FAMILIES) {
        const details = await fc.check(
          fc.asyncProperty(trial, async ({ value, replacement, bytes }) => {
            const f = figures.get(family) ?? empty();
            const from = values[value % values.length] ?? '';
            const to = replacement === from ? `${String(replacement)}x` : replacement;
            let where = '';
            let result: { run: Run; sent: Sent[]; activated: boolean };
            const byteEdit = (original: Buffer): Buffer => {
              let out = Buffer.from(original);
              for (const edit of bytes) {
                const at = edit.at % out.length;
                const byte = edit.op === 'change' && out[at] === edit.byte ? (edit.byte + 1) % 256 : edit.byte;
                if (edit.op === 'change') out[at] = byte;
                else if (edit.op === 'insert') out = Buffer.concat([out.subarray(0, at), Buffer.from([byte]), out.subarray(at)]);
                else out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1)]);
              }
              return out;
            };
            switch (family) {
              case 'consistent edit, in the project': {
                where = `${JSON.stringify(from)} -> ${JSON.stringify(to)}`;
                await writeFile(forgedFile, replaceEverywhere(originals.unsigned.toString('utf8'), from, to));
                result = await apply([...config, '--plan', forgedFile]);
                break;
              }
              case 'consistent edit, signed': {
                where = `${JSON.stringify(from)} -> ${JSON.stringify(to)}`;
                await writeFile(forgedFile, replaceEverywhere(originals.signed.toString('utf8'), from, to));
                await writeFile(`${forgedFile}.sig`, originals.signature);
                result = await apply(['--plan', forgedFile], keyed);
                break;
              }
              case 'byte edit, signed': {
                const edited = byteEdit(originals.signed);
                where = JSON.stringify(bytes);
                if (edited.equals(originals.signed)) return; // an insert and a delete that cancel out: no edit
                await writeFile(forgedFile, edited);
                await writeFile(`${forgedFile}.sig`, originals.signature);
                result = await apply(['--plan', forgedFile], keyed);
                break;
              }
              case 'signature byte edit': {
                const edited = byteEdit(originals.signature);
                where = JSON.stringify(bytes);
                if (edited.toString('utf8').trim() === originals.signature.toString('utf8').trim()) return; // only white space around the line
                await writeFile(forgedFile, originals.signed);
                await writeFile(`${forgedFile}.sig`, edited);
                result = await apply(['--plan', forgedFile], keyed);
                break;
              }
            }
            f.trials += 1;
            if (showsCrash(result.run)) f.crashes += 1;
            f.secrets += leakedSecrets(gateway.outputs, gateway.secrets).length;
            if (result.sent.length > 0 || result.activated) {
              f.sent += 1;
              samples.push(`${family} ${where}: sent ${result.sent.length} edit(s)${result.activated ? ' and asked to activate' : ''}`);
            } else {
              f.refused += 1;
              if (result.run.code !== 1 || !/^Error: /m.test(result.run.stderr)) {
                f.badExit += 1;
                samples.push(`${family} ${where}: refused without a one-line error (exit ${result.run.code}): ${result.run.stderr.slice(0, 200)}`);
              }
            }
            if (samples.length > 0) throw new Error(samples[samples.length - 1]);
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
        if (details.failed) samples.push(fc.defaultReportMessage(details) ?? '');
      }
    } finally {
      await gateway.close();
    }
    const violations = recordDrill({
      id: 'plan-file-forgery',
      title: 'Plan-file forgery',
      description:
        'A real plan file (plan --out inside a project: updates, creates, links) forged at random with fast-check so that its plan is ' +
        'still the plan its desired state makes: a value of the desired state (an attribute leaf or a name) replaced everywhere the file ' +
        'holds it, applied inside the project; the same on a signed copy, and random byte edits (changed, inserted, deleted) of the signed ' +
        'file or of its signature, applied outside any project with the key. The oracle is what the gateway received: no mutating ' +
        'request may reach it, and each refusal is exit 1 with one error line.',
      seed: SEED,
      columns: ['forgery', 'trials', 'refused', 'sent a request', 'other exit codes', 'crashes', 'secrets found'],
      rows: FAMILIES.map((family) => {
        const f = figures.get(family) ?? empty();
        return [family, f.trials, f.refused, f.sent, f.badExit, f.crashes, f.secrets];
      }),
      mustBeZero: ['sent a request', 'other exit codes', 'crashes', 'secrets found'],
    });
    expect(samples).toEqual([]);
    expect(violations).toEqual([]);
  }, 3_600_000);
});
