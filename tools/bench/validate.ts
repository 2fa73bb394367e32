/**
 * Validate benchmark, how the validator's speed target is checked: generates projects of N
 * mappings (plus the virtual hosts, back-end groups and template they link to) in a
 * temporary directory and times `loadManifests` on them, cold (first run in the process:
 * schema compilation included) and warm. Target: 10,000 mappings validated in under 2 s.
 *
 * Run: `node dist-tools/bench/validate.js [sizes...]` (default 1000 10000).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasErrors, loadManifests } from '#src/manifest/index.js';

/** One measured size. */
export interface ValidateBenchResult {
  readonly mappings: number;
  readonly documents: number;
  /** Bytes of YAML read. */
  readonly bytes: number;
  /** Wall time of the first load in milliseconds. */
  readonly firstMs: number;
  /** Median wall time of the following loads in milliseconds. */
  readonly medianMs: number;
  readonly valid: boolean;
}

/** The validation target: 10,000 mappings in under this many milliseconds. */
export const VALIDATE_TARGET_MS = 2000;

const MAPPINGS_PER_FILE = 250;

function mappingYaml(i: number, vhosts: number, groups: number): string {
  return `---
apiVersion: gwops/v1
kind: mapping
name: bench-m${i}
extends: baseline
attributes:
  labels: [bench, team-${i % 7}]
  entryPath: { value: /app${i}/, priority: ${(i % 1999) - 999} }
  backendPath: /app${i}/
  threatHandling: ${i % 3 === 0 ? 'NOTIFY' : 'BLOCK'}
  access:
    authenticationFlow: REDIRECT
    restrictions:
      - enabled: true
        authorizedRoles: [user]
        entryPathPattern: { pattern: '^/app${i}/admin', caseIgnored: true }
  timeouts: { backend: 120 }
relationships:
  virtual-hosts: [bench-vh${i % vhosts}]
  back-end-groups: [bench-bg${i % groups}]
`;
}

/** Writes a project of `mappings` mappings under `dir`; returns the number of bytes written. */
export async function generateProject(dir: string, mappings: number): Promise<{ bytes: number; documents: number }> {
  const vhosts = Math.max(1, Math.ceil(mappings / 500));
  const groups = Math.max(1, Math.ceil(mappings / 100));
  let bytes = 0;
  const write = async (file: string, text: string): Promise<void> => {
    bytes += Buffer.byteLength(text);
    await writeFile(path.join(dir, file), text);
  };
  let shared = `apiVersion: gwops/v1
kind: mapping-template
name: baseline
attributes:
  operationalMode: PRODUCTION
  csrfProtection: { enabled: true }
  limits: { general: { maxRequestBodySize: 1048576 } }
`;
  for (let v = 0; v < vhosts; v++) {
    shared += `---
apiVersion: gwops/v1
kind: virtual-host
name: bench-vh${v}
attributes:
  hostName: vh${v}.bench.example.com
  networkInterface: { https: { enabled: true, port: 443, http2Allowed: true } }
`;
  }
  for (let g = 0; g < groups; g++) {
    shared += `---
apiVersion: gwops/v1
kind: back-end-group
name: bench-bg${g}
attributes:
  backendHosts: [{ protocol: HTTP, hostName: app${g}.internal, port: 8080 }]
`;
  }
  await write('shared.yaml', shared);
  for (let start = 0; start < mappings; start += MAPPINGS_PER_FILE) {
    let text = '';
    for (let i = start; i < Math.min(mappings, start + MAPPINGS_PER_FILE); i++) text += mappingYaml(i, vhosts, groups);
    await write(`mappings-${String(start).padStart(6, '0')}.yaml`, text);
  }
  return { bytes, documents: 1 + vhosts + groups + mappings };
}

/** Generates and measures each size (`runs` loads each, the first reported separately). */
export async function benchValidate(sizes: readonly number[] = [1000, 10000], runs = 3): Promise<ValidateBenchResult[]> {
  const results: ValidateBenchResult[] = [];
  for (const mappings of sizes) {
    const dir = await mkdtemp(path.join(tmpdir(), 'gwops-bench-validate-'));
    try {
      const { bytes, documents } = await generateProject(dir, mappings);
      const times: number[] = [];
      let valid = true;
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        const result = await loadManifests({ paths: [dir], cwd: dir, env: {} });
        times.push(performance.now() - t0);
        valid &&= !hasErrors(result.diagnostics) && result.documents.length === documents - 1;
      }
      const rest = times.slice(1).sort((a, b) => a - b);
      results.push({
        mappings,
        documents,
        bytes,
        firstMs: times[0] ?? 0,
        medianMs: rest[Math.floor(rest.length / 2)] ?? times[0] ?? 0,
        valid,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return results;
}

/** The results as a table, sizes side by side, with the verdict on the 2 s target. */
export function formatValidateBench(results: readonly ValidateBenchResult[]): string {
  const rows: [string, ...string[]][] = [
    ['mappings', ...results.map((r) => String(r.mappings))],
    ['documents', ...results.map((r) => String(r.documents))],
    ['YAML size', ...results.map((r) => `${(r.bytes / 1048576).toFixed(1)} MiB`)],
    ['first load (cold)', ...results.map((r) => `${r.firstMs.toFixed(0)} ms`)],
    ['median load (warm)', ...results.map((r) => `${r.medianMs.toFixed(0)} ms`)],
    ['per 1,000 mappings', ...results.map((r) => `${((r.medianMs / r.mappings) * 1000).toFixed(0)} ms`)],
    ['valid', ...results.map((r) => (r.valid ? 'yes' : 'NO'))],
  ];
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  '));
  const big = results.find((r) => r.mappings === 10000);
  if (big) {
    const worst = Math.max(big.firstMs, big.medianMs);
    lines.push(`target: 10,000 mappings in under ${VALIDATE_TARGET_MS} ms: ${worst < VALIDATE_TARGET_MS ? 'met' : 'MISSED'} (${worst.toFixed(0)} ms)`);
  }
  return `validate (gwops validate on generated manifests)\n${lines.join('\n')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => Number.isInteger(n) && n > 0);
  const results = await benchValidate(sizes.length > 0 ? sizes : [1000, 10000]);
  process.stdout.write(formatValidateBench(results));
}
