/**
 * The reconciler's errors (src/engine/errors.ts) and the one table of exit codes
 * (src/core/exit-codes.ts), and the gateway validator's messages as diagnostics
 * (`locateMessages`, src/operations/steps/pipeline.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { constants } from 'node:os';
import { EXIT_CODES_HELP } from '../../src/cli/exit.js';
import { DiagnosticsError, GwopsError, isDiagnosticsError } from '../../src/core/errors.js';
import { EXIT, SIGNAL_EXIT } from '../../src/core/exit-codes.js';
import type { ValidatorMessage } from '../../src/gateway/index.js';
import { INTERRUPT_SIGNALS } from '../../src/core/interrupts.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { objectKey } from '../../src/core/object-key.js';
import * as errors from '../../src/engine/errors.js';
import { locateMessages } from '../../src/operations/steps/pipeline.js';
import { InterruptedError } from '../../src/gateway/errors.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const error = (code: string, message = 'm'): Diagnostic => ({ severity: 'error', code, message });
const warning: Diagnostic = { severity: 'warning', code: 'W', message: 'w' };

describe('exit codes', () => {
  it('after a signal are 128 + its number, as the shells report it', () => {
    for (const signal of INTERRUPT_SIGNALS) {
      const conventional = 128 + constants.signals[signal];
      expect(SIGNAL_EXIT[signal], signal).toBe(conventional);
      expect(new InterruptedError(signal).exitCode, signal).toBe(conventional);
    }
    expect(new GwopsError('x').exitCode).toBe(EXIT.error);
  });

  it('are the ones README.md and gwops --help document', () => {
    // The README's table: one row per code, "129 / 130 / 143" for the signals.
    const table = readFileSync(join(REPO, 'README.md'), 'utf8').split('### Exit codes')[1]?.split('\n\n')[1] ?? '';
    const documented = [...table.matchAll(/^\| ([\d /]+) \|/gm)].flatMap((m) => (m[1] ?? '').split('/').map(Number));
    expect(documented.sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
    const help = [...EXIT_CODES_HELP.matchAll(/^ {2}(\d+) +\S/gm)].map((m) => Number(m[1]));
    expect(help).toEqual([0, 1, 2, 3, 129, 130, 143]);
    expect(Object.values(EXIT)).toEqual(help);
  });

  it('are never number literals in src/ outside the table', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    // Dev scripts (schema generation; the benchmarks and other tools live in tools/) are not gwops and keep their own usage codes.
    const checked = files.filter((f) => f !== join('core', 'exit-codes.ts') && f !== join('schema', 'generate.ts'));
    const literal = /\bexitCode\s*(?::\s*number\s*)?=\s*\d|\bexit\(\s*\d|\b(?:SIGHUP|SIGINT|SIGTERM)\s*:\s*1\d\d\b|\bexitCode\s*[!=]==?\s*\d/;
    // Command actions answer exit codes: never `return 0;` or `done(1)` there.
    const answered = /\breturn\s+\d+\s*;|\bdone\(\s*\d/;
    const offenders = checked
      .filter((f) => {
        const text = readFileSync(join(src, f), 'utf8');
        return literal.test(text) || (f.startsWith('cli') && answered.test(text));
      })
      .map((f) => relative(src, join(src, f)));
    expect(offenders).toEqual([]);
  });
});

describe('the reconciler errors', () => {
  it('are imported from the module that defines them: no module of src/ re-exports an error class or the exit codes', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    // FilterSyntaxError is the filter grammar's own signal (a plain Error, src/api/filter.ts), not a GwopsError.
    const reexport = /^export (?:type )?\{([^}]*)\} from /gm;
    const offenders = files.flatMap((f) =>
      [...readFileSync(join(src, f), 'utf8').matchAll(reexport)]
        .filter((m) => /\b(?:\w+Error|EXIT|SIGNAL_EXIT|ExitCode|redact)\b/.test((m[1] ?? '').replace(/\bFilterSyntaxError\b/g, '')))
        .map((m) => `${f}: ${m[0]}`),
    );
    expect(offenders).toEqual([]);
  });

  it('live in one module per layer: every class extending GwopsError is defined in src/core/errors.ts, src/engine/errors.ts or src/gateway/errors.ts', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const classes = files.flatMap((f) =>
      [...readFileSync(join(src, f), 'utf8').matchAll(/\bclass (\w+) extends (\w+)/g)].map((m) => ({ file: f, name: m[1] ?? '', base: m[2] ?? '' })),
    );
    const gwops = new Set(['GwopsError']);
    for (let grown = true; grown; ) {
      grown = false;
      for (const c of classes) if (gwops.has(c.base) && !gwops.has(c.name)) grown = gwops.add(c.name).size > 0;
    }
    const homes = new Set([join('core', 'errors.ts'), join('engine', 'errors.ts'), join('gateway', 'errors.ts')]);
    expect(classes.filter((c) => gwops.has(c.name) && !homes.has(c.file)).map((c) => `${c.file}: ${c.name}`)).toEqual([]);
    expect(classes.filter((c) => gwops.has(c.name)).length).toBeGreaterThan(20);
  });

  it('carry their diagnostics and exit codes', () => {
    const diagnostics = [error('a'), warning, error('b')];
    const manifest = new errors.ManifestError(diagnostics);
    expect(manifest).toBeInstanceOf(DiagnosticsError);
    expect(manifest.exitCode).toBe(EXIT.error);
    expect(manifest.message).toBe('the manifests have 2 errors; nothing was sent to the gateway');
    const rejected = new errors.ValidatorRejectedError([error('MAPPING_WITHOUT_BACKEND_GROUP'), warning]);
    expect(rejected.exitCode).toBe(EXIT.validatorErrors);
    expect(rejected.message).toBe("the gateway's validator reported 1 error; nothing was activated");
    expect(new errors.DesiredStateError([error('duplicate-object')]).exitCode).toBe(EXIT.error);
    expect(new errors.UnresolvedReferenceError([error('unresolved-link'), error('unresolved-link')]).message).toMatch(/^the manifests have 2 links to objects/);
    for (const e of [manifest, rejected, new errors.DesiredStateError([]), new errors.UnresolvedReferenceError([])]) {
      expect(isDiagnosticsError(e)).toBe(true);
    }
    expect(isDiagnosticsError(new errors.StalePlanError('x'))).toBe(false);
    expect(isDiagnosticsError(new Error('x'))).toBe(false);
  });
});

describe('locateMessages', () => {
  const loaded = {
    locate: (kind: string, name: string) => (kind === 'mapping' && name === 'shop' ? { file: 'm.yaml', line: 3, column: 1 } : undefined),
  };
  const ids = new Map([
    [objectKey('mapping', 'shop'), '7'],
    [objectKey('mapping', 'other'), '8'],
  ]);
  const message = (m: Partial<ValidatorMessage>): ValidatorMessage => ({ severity: 'ERROR', code: 'C', title: 't', detail: 'd', ...m });

  it('maps each message to a diagnostic: severity, the gateway code, the object and its manifest position', () => {
    expect(
      locateMessages(
        [
          message({ code: 'MAPPING_WITHOUT_BACKEND_GROUP', detail: "The mapping 'shop' has no back-end group.", model: { type: 'mapping', id: '7' } }),
          message({ severity: 'WARNING', detail: 'no position', model: { type: 'mapping', id: '8' } }),
          message({ severity: 'INFO', code: '', detail: 'about nothing' }),
          message({ detail: 'unknown id', model: { type: 'mapping', id: '99' } }),
        ],
        ids,
        loaded,
      ),
    ).toEqual([
      {
        severity: 'error',
        code: 'MAPPING_WITHOUT_BACKEND_GROUP',
        file: 'm.yaml',
        line: 3,
        column: 1,
        pointer: '',
        object: { kind: 'mapping', name: 'shop' },
        message: "The mapping 'shop' has no back-end group.",
      },
      { severity: 'warning', code: 'C', object: { kind: 'mapping', name: 'other' }, message: 'no position' },
      { severity: 'info', code: 'validator-message', message: 'about nothing' },
      { severity: 'error', code: 'C', message: 'unknown id' },
    ]);
  });
});
