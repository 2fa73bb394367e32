/**
 * Drill "hostile gateway": a small fake server that answers one call of `gwops plan`
 * (the first list, `GET /configuration/back-end-groups`) with something a gateway should
 * never send. gwops must exit 1 with one line naming the call (or, for TLS, the host) and
 * the problem, no stack trace, within its timeouts, and send nothing more but the
 * session's terminate.
 */
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:https';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { startFakeGateway } from '../gateway/fake-gateway.js';
import type { FakeGateway } from '../gateway/fake-gateway.js';
import { drillSeed, recordDrill } from './record.js';
import type { Run } from './support.js';
import { HangError, leakedSecrets, showsCrash, startDrillGateway, within, writeDrillManifests } from './support.js';

const TARGET = '/configuration/back-end-groups';

interface HostileCase {
  readonly name: string;
  /** What the message must say besides the call. */
  readonly says: RegExp;
  readonly args?: readonly string[];
  answer(res: ServerResponse): void | Promise<void>;
}

const json = (res: ServerResponse, status: number, body: string): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
};

const CASES: readonly HostileCase[] = [
  { name: 'malformed JSON', says: /JSON|unexpected/i, answer: (res) => json(res, 200, '{"data": [{"type": "back-end-group", "id": "1", ') },
  {
    name: 'an HTML error page',
    says: /500/,
    answer: (res) => void res.writeHead(500, { 'content-type': 'text/html' }).end('<html><body><h1>Internal Server Error</h1><p>at com.example.Foo</p></body></html>'),
  },
  { name: '200 with an errors body', says: /data|errors/i, answer: (res) => json(res, 200, '{"errors":[{"status":"500","code":"BOOM","title":"nope"}]}') },
  { name: 'a missing data member', says: /data/i, answer: (res) => json(res, 200, '{"meta":{}}') },
  { name: 'wrong types in data', says: /data|id|attributes|type/i, answer: (res) => json(res, 200, '{"data":[{"type":"back-end-group","id":5,"attributes":"x"}]}') },
  {
    name: 'a body larger than the limit',
    says: /larger|limit|MiB|GiB/i,
    answer: (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4 * 1024 ** 3) });
      res.write('{"data":[');
    },
  },
  {
    name: 'a trickle of one byte per second (--timeout 1)',
    says: /too slowly|timed out/i,
    args: ['--timeout', '1'],
    answer: async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (const ch of '{"data":[]}'.repeat(100)) {
        if (res.destroyed) return;
        res.write(ch);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      res.end();
    },
  },
  { name: 'a redirect to another host', says: /302/, answer: (res) => void res.writeHead(302, { location: 'http://gateway.attacker.invalid/airlock/rest/configuration/back-end-groups' }).end() },
];

interface Figures {
  code: number;
  lines: number;
  namesCall: boolean;
  saysProblem: boolean;
  after: number;
  crash: boolean;
  hang: boolean;
  secrets: number;
}

/** Runs `gwops plan` against `url` (with `extra` options) and classifies it. */
async function runPlan(url: string, extra: readonly string[], manifests: string, keyFile: string, secrets: readonly string[]): Promise<{ run: Run; hang: boolean; leaks: number }> {
  const gateway = await startDrillGateway();
  try {
    let run: Run = { code: -1, stdout: '', stderr: '' };
    let hang = false;
    try {
      run = await within(60_000, 'hostile gateway', gateway.cli(['plan', '--no-server-check', manifests, '--url', url, '--api-key-file', keyFile, ...extra]));
    } catch (error) {
      if (!(error instanceof HangError)) throw error;
      hang = true;
    }
    return { run, hang, leaks: leakedSecrets(gateway.outputs, secrets).length };
  } finally {
    await gateway.close();
  }
}

describe('drill: hostile gateway', () => {
  it('one located line, exit 1, no stack trace, nothing more sent, for every kind of hostile answer', async () => {
    const seed = drillSeed(1);
    const setup = await startDrillGateway();
    const rows: (string | number)[][] = [];
    const all: Figures[] = [];
    try {
      const m = await writeDrillManifests(setup.dir);
      const keyFile = join(setup.dir, 'fake-key');
      const key = 'fake-api-key-value-for-the-hostile-drill';
      await writeFile(keyFile, key, { mode: 0o600 });
      const record = (name: string, f: Figures): void => {
        all.push(f);
        rows.push([name, f.code, f.lines, f.namesCall ? 'yes' : 'no', f.saysProblem ? 'yes' : 'no', f.after, f.crash ? 1 : 0, f.hang ? 1 : 0, f.secrets]);
      };
      for (const c of CASES) {
        const order: string[] = [];
        const fake: FakeGateway = await startFakeGateway(async (req, res, path) => {
          order.push(`${req.method ?? ''} ${path}`);
          if (path === TARGET && req.method === 'GET') await c.answer(res);
          else json(res, 200, '{"data":[]}');
        });
        try {
          const { run, hang, leaks } = await runPlan(fake.url, c.args ?? [], m.target, keyFile, [key, 'fake-session-cookie']);
          const at = order.indexOf(`GET ${TARGET}`);
          const errorLines = run.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('Warning:'));
          record(c.name, {
            code: run.code,
            lines: errorLines.length,
            namesCall: errorLines.some((l) => l.includes(`GET ${TARGET}`)),
            saysProblem: c.says.test(run.stderr),
            after: at < 0 ? -1 : order.slice(at + 1).length,
            crash: showsCrash(run),
            hang,
            secrets: leaks,
          });
        } finally {
          await fake.close();
        }
      }
      // A TLS certificate for another name (its CA trusted through --ca-file): refused before the key is sent.
      const pems = await generate([{ name: 'commonName', value: 'other.example' }], {
        keyType: 'ec',
        curve: 'P-256',
        algorithm: 'sha256',
        extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'other.example' }] }],
      });
      const caFile = join(setup.dir, 'other-ca.pem');
      await writeFile(caFile, pems.cert);
      let requests = 0;
      const tlsServer: Server = createHttpsServer({ cert: pems.cert, key: pems.private }, (_req, res) => {
        requests += 1;
        json(res, 200, '{}');
      });
      await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
      const address = tlsServer.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      try {
        const { run, hang, leaks } = await runPlan(`https://127.0.0.1:${port}/airlock/rest`, ['--ca-file', caFile], m.target, keyFile, [key]);
        const errorLines = run.stderr.split('\n').filter((l) => l.trim() !== '');
        record('a TLS certificate for another name', {
          code: run.code,
          lines: errorLines.length,
          namesCall: errorLines.some((l) => l.includes(`127.0.0.1:${port}`)),
          saysProblem: /TLS certificate/.test(run.stderr),
          after: requests,
          crash: showsCrash(run),
          hang,
          secrets: leaks,
        });
      } finally {
        tlsServer.closeAllConnections();
        await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
      }
    } finally {
      await setup.close();
    }
    const violations = recordDrill({
      id: 'hostile-gateway',
      title: 'Hostile gateway',
      description:
        'A fake gateway answers the first list of gwops plan (GET /configuration/back-end-groups) with something no ' +
        'gateway should send, or presents a TLS certificate for another name. gwops must exit 1 with one line naming ' +
        'the call (the host for TLS) and the problem, within its timeouts, and send nothing more than the terminate of ' +
        'its session ("calls after" counts the others; for TLS, requests that reached the server at all).',
      seed,
      columns: ['answer', 'exit code', 'lines', 'names the call', 'says the problem', 'calls after', 'crashes', 'hangs', 'secrets found'],
      rows,
      mustBeZero: ['calls after', 'crashes', 'hangs', 'secrets found'],
    });
    expect(violations).toEqual([]);
    for (const [i, f] of all.entries()) {
      const name = String(rows[i]?.[0]);
      expect(f.code, name).toBe(1);
      expect(f.lines, name).toBe(1);
      expect(f.namesCall, name).toBe(true);
      expect(f.saysProblem, name).toBe(true);
    }
  }, 600_000);
});
