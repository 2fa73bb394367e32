/**
 * Paths that name something other than a small regular file, given to the real gwops
 * process: `{ fromFile: /dev/zero }` (used to grow without end), a FIFO (used to block in
 * `open` for ever, deaf to SIGTERM), `caFile: /dev/zero` in gwops.yaml. Each run ends at
 * once with exit 1 and one line naming the attribute, in bounded memory (the child's peak
 * resident set); SIGTERM and SIGINT end a command that is waiting for input at once.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runBounded, untilStalled } from '../support/bounded-process.js';
import { startGwops } from './spawn.js';
import { useHarness, writeManifests } from './harness.js';

/** Peak resident memory of a refusal: node itself takes about 60 MiB. */
const PEAK_BYTES = 256 * 1024 * 1024;

const certificate = (privateKey: string): string =>
  'apiVersion: gwops/v1\nkind: ssl-certificate\nname: hostile\nattributes:\n  certType: SERVER_CERT\n' +
  `  certificate: "-----BEGIN CERTIFICATE-----"\n  privateKey: { fromFile: ${privateKey} }\n`;

const backendGroup = 'apiVersion: gwops/v1\nkind: back-end-group\nname: hostile\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n';

/** The lines of an output that report an error (validate's located diagnostics, or `Error: ...`). */
const errorLines = (text: string): string[] => text.split('\n').filter((l) => /: error: |^Error: /.test(l));

describe('files that are not small regular files end the run at once with one line', () => {
  const t = useHarness();
  let dir = '';
  beforeAll(async () => {
    dir = await writeManifests(t.h, 'hostile-files', {
      'zero.yaml': certificate('/dev/zero'),
      'fifo.yaml': certificate('pipe'),
      'backends.yaml': backendGroup,
    });
    execFileSync('mkfifo', [join(dir, 'pipe')]);
  });

  it('{ fromFile: /dev/zero }: exit 1, one line naming the secret attribute, bounded memory', async () => {
    const run = await runBounded(['validate', 'zero.yaml'], { cwd: dir });
    expect(run.killed).toBeUndefined();
    expect(run.code).toBe(1);
    expect(errorLines(run.stdout + run.stderr)).toEqual([
      "zero.yaml:7:15: error: secret 'privateKey' of ssl-certificate 'hostile': cannot read file '/dev/zero': it is a character device, not a regular file [secret-unavailable]",
    ]);
    expect(run.maxRssBytes).toBeLessThan(PEAK_BYTES);
  }, 60_000);

  it('{ fromFile: a FIFO }: exit 1 at once (the open does not wait for a writer), naming the FIFO', async () => {
    const run = await runBounded(['validate', 'fifo.yaml'], { cwd: dir });
    expect(run.killed).toBeUndefined();
    expect(run.code).toBe(1);
    expect(errorLines(run.stdout + run.stderr)).toEqual([
      "fifo.yaml:7:15: error: secret 'privateKey' of ssl-certificate 'hostile': cannot read file 'pipe': it is a FIFO (named pipe), not a regular file [secret-unavailable]",
    ]);
  }, 60_000);

  it('caFile: /dev/zero of a target in gwops.yaml: exit 1, one line naming caFile and the target, nothing sent', async () => {
    const project = await writeManifests(t.h, 'hostile-ca', {
      'gwops.yaml': `targets:\n  prod:\n    url: ${t.h.emulator.url}\n    apiKeyEnv: KEY\n    caFile: /dev/zero\n`,
      'backends.yaml': backendGroup,
    });
    t.h.emulator.requestLog.length = 0;
    const run = await runBounded(['plan', '--target', 'prod', 'backends.yaml'], { cwd: project, env: { KEY: t.h.emulator.apiKey } });
    expect(run.killed).toBeUndefined();
    expect(run.code).toBe(1);
    expect(errorLines(run.stderr)).toEqual(["Error: cannot read CA file (caFile of target 'prod') /dev/zero: it is a character device, not a regular file"]);
    expect(run.maxRssBytes).toBeLessThan(PEAK_BYTES);
    expect(t.h.emulator.requestLog).toEqual([]);
  }, 60_000);

  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`${signal} ends a command that waits for input, with exit ${code}`, async () => {
      // validate - waits for standard input, which this test never closes.
      const gwops = startGwops(['validate', '-'], {}, dir);
      // Once the CLI is loaded it prints nothing until input ends: wait until it sleeps without progress.
      const pid = gwops.child.pid ?? -1;
      expect(await untilStalled(pid)).toBe('stalled');
      gwops.child.kill(signal);
      // A deaf process goes back to sleep without progress; one that heeds the signal ends.
      const exit = await Promise.race([gwops.exited, untilStalled(pid).then(async (r) => (r === 'gone' ? await gwops.exited : r))]);
      if (exit === 'stalled') gwops.child.kill('SIGKILL');
      expect(exit).toBe(code);
      expect(gwops.stderr.trim().split('\n')).toHaveLength(1);
    }, 30_000);
  }
});
