/**
 * The `Diagnostics` value (src/core/diagnostics.ts): the one route diagnostics travel, in the
 * shape of Terraform's tfdiags, and the one error base (`DiagnosticsError`, src/core/errors.ts)
 * every error that carries diagnostics extends.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { Diagnostics } from '../../src/core/diagnostics.js';
import { DiagnosticsError, isDiagnosticsError } from '../../src/core/errors.js';
import { ManifestError, ValidatorRejectedError } from '../../src/engine/errors.js';
import { EXIT } from '../../src/core/exit-codes.js';

const error: Diagnostic = { severity: 'error', code: 'unknown-attribute', message: 'e' };
const warning: Diagnostic = { severity: 'warning', code: 'unset-variable', message: 'w' };
const info: Diagnostic = { severity: 'info', code: 'validator-message', message: 'i' };

describe('Diagnostics', () => {
  it('is immutable: append returns a new value with the items after the old ones', () => {
    const first = Diagnostics.of(warning);
    const second = first.append(error, [info], Diagnostics.of(warning));
    expect(first.all()).toEqual([warning]);
    expect(second.all()).toEqual([warning, error, info, warning]);
    expect([...second]).toEqual(second.all());
    expect(second.length).toBe(4);
    expect(Diagnostics.none.append()).toBe(Diagnostics.none);
  });

  it('tells errors from warnings', () => {
    const all = Diagnostics.of(warning, error, info);
    expect(all.hasErrors()).toBe(true);
    expect(all.errors()).toEqual([error]);
    expect(all.warnings()).toEqual([warning]);
    expect(Diagnostics.of(warning, info).hasErrors()).toBe(false);
  });

  it('turns into one typed error only when there are errors', () => {
    const make = (d: Diagnostics): ManifestError => new ManifestError(d.all());
    expect(Diagnostics.of(warning).toError(make)).toBeUndefined();
    const warnings = Diagnostics.of(warning);
    expect(warnings.throwIfErrors(make)).toBe(warnings);
    const failed = Diagnostics.of(warning, error);
    expect(failed.toError(make)?.diagnostics).toEqual([warning, error]);
    expect(() => failed.throwIfErrors(make)).toThrow(ManifestError);
  });
});

describe('DiagnosticsError', () => {
  it('is the one base of the errors that carry diagnostics, and keeps their exit codes', () => {
    const rejected = Diagnostics.of(error).toError((d) => new ValidatorRejectedError(d.all()));
    expect(rejected).toBeInstanceOf(DiagnosticsError);
    expect(rejected?.exitCode).toBe(EXIT.validatorErrors);
    expect(isDiagnosticsError(new ManifestError([error]))).toBe(true);
    expect(isDiagnosticsError(new DiagnosticsError('m', Diagnostics.of(error)))).toBe(true);
    expect(new DiagnosticsError('m', Diagnostics.of(warning)).diagnostics).toEqual([warning]);
    expect(isDiagnosticsError(new Error('x'))).toBe(false);
  });
});
