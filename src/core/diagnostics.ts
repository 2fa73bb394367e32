/**
 * Diagnostics: the one shape every located problem of gwops is reported in, wherever it
 * is found (Terraform's `tfdiags` is the model); their formats are in diagnostics-format.ts
 * (docs/architecture.md "Habits": file:line:column, JSON pointer, a stable code, what is
 * wrong and what would be right; every problem at once).
 *
 * The sources of diagnostics:
 * - the manifest loader (src/manifest/): codes {@link ManifestDiagnosticCode}, always
 *   located, never with an `object`; its kinds' rules (src/kinds/<kind>/rules.ts) add the
 *   codes each kind module lists in `diagnosticCodes` ({@link KindDiagnosticCode});
 * - building the desired state and the plan (src/engine/desired.ts, plan.ts): codes
 *   {@link ReconcileDiagnosticCode}, with the object and the document that declares it;
 * - the gateway's validator (src/operations/steps/pipeline.ts `locateMessages`): the gateway's own
 *   code (e.g. `MAPPING_WITHOUT_BACKEND_GROUP`, {@link VALIDATOR_MESSAGE_CODE} when it
 *   sent none), located at the document of the object when a manifest declares it.
 *
 * Messages never contain a value of an attribute marked `x-gwops-secret`: the code that
 * creates a diagnostic names attribute paths only (a validator message is the gateway's
 * text, and every output passes through the run's redactor, src/cli/io.ts).
 */
import type { KindDiagnosticCode } from '../kinds/index.js';

/**
 * Stable machine codes of manifest diagnostics. Tests and CI scripts may rely on them;
 * messages may be reworded, codes may not.
 */
export type ManifestDiagnosticCode =
  | 'yaml-syntax'
  | 'invalid-encoding'
  | 'control-character'
  | 'duplicate-key'
  | 'not-an-object'
  | 'unknown-kind'
  | 'unknown-api-version'
  | 'missing-api-version'
  | 'missing-name'
  /** A `name` with a control, zero-width or bidi character (src/core/display.ts). */
  | 'invalid-name'
  /** A `name` on a singleton's document (src/kinds/kind.ts `singleton`): it has none. */
  | 'singleton-name'
  | 'name-mismatch'
  | 'unknown-key'
  | 'unknown-attribute'
  | 'unknown-relationship'
  | 'invalid-type'
  | 'invalid-value'
  | 'out-of-range'
  | 'invalid-secret'
  | 'to-one-list'
  | 'duplicate-link'
  | 'conflicting-link'
  | 'duplicate-object'
  | 'unresolved-link'
  | 'invalid-regex'
  | 'variant-attribute'
  | 'variant-kind'
  | 'missing-template'
  | 'template-cycle'
  | 'extends-not-allowed'
  | 'unset-variable'
  /** `${VAR}` names a variable that holds an API key or a secret (src/manifest/secret-variables.ts). */
  | 'secret-variable'
  | 'secret-unavailable'
  /** A document's `content: { fromFile }` cannot be read, or lies outside the project (src/manifest/content.ts). */
  | 'content-unavailable'
  /** A value's `{ fromFile }` (a certificate's PEM) cannot be read, or lies outside the project (src/manifest/file-sources.ts). */
  | 'file-unavailable'
  /** A file named as a document's content declares gwops documents and lies in the manifest paths (src/manifest/content.ts). */
  | 'content-is-manifest'
  | 'literal-secret'
  | 'overlay-invalid'
  | 'overlay-target-missing'
  | 'overlay-patch-failed'
  | 'no-manifests'
  /** `{ fromJwks }` next to no algorithm, or one whose key is a passphrase (`HS_*`). */
  | 'jwks-algorithm'
  /** `{ fromJwks: { source } }` names no `jwks` entry of gwops.yaml. */
  | 'jwks-source-unknown'
  /** The URL of a `{ fromJwks }` value or of its `jwks` source carries a user name or password. */
  | 'jwks-credentials'
  /** An attribute that holds a URL the gateway connects to (schema mark `x-gwops-url`) carries a user name or password. */
  | 'url-credentials'
  /** A JWK Set could not be fetched or is not one (found at plan, apply or drift time). */
  | 'jwks-unavailable'
  /** No usable key: kid missing, several candidates for alg, wrong key type (found at plan, apply or drift time). */
  | 'jwks-key'
  /** A `drift.ignore` entry of the project file names an object no manifest declares or a path no difference can have (a warning). */
  | 'drift-ignore-unmatched'
  /** A declared object fails its kind's ownership filters: gwops would create it outside its own scope. */
  | 'outside-ownership-scope';

/**
 * Stable codes of the problems found while building the desired state and the plan
 * (after the manifests passed validation, e.g. when a library caller skips it, or a link
 * names an object the live gateway does not have). Where the manifest rules check the same
 * thing, the code is the same (`duplicate-object`, `unknown-relationship`, `to-one-list`,
 * `conflicting-link`, `unresolved-link`).
 */
export type ReconcileDiagnosticCode =
  | 'duplicate-object'
  | 'unknown-relationship'
  | 'to-one-list'
  | 'conflicting-link'
  | 'unresolved-link'
  /** Two objects of a kind whose identity is not the name have the same identity (two certificates with one PEM). */
  | 'duplicate-identity'
  /** An object's attributes give no identity (a certificate without its PEM). */
  | 'missing-identity'
  /** A manifest declares an object that is built into the gateway (negative id), which no client may change. */
  | 'built-in-object'
  /** Pruning would delete all owned objects of a kind, or more than the allowed share, without `--allow-mass-delete`. */
  | 'mass-delete'
  /** A manifest declares a name that exists live outside the project's ownership scope for its kind (someone else's object). */
  | 'outside-ownership-scope'
  /** A step of the plan failed inside the session (server check or apply): the gateway refused its call. */
  | 'step-failed'
  /** The run stopped on an error that is not about one object (the gateway unreachable, a refused read): its message. */
  | 'run-failed';

/**
 * The stable codes of gwops's own diagnostics: the generic ones above and those of the
 * kinds' manifest rules, which each kind module lists in its `diagnosticCodes`
 * (src/kinds/kind.ts `KindDiagnosticCode`).
 */
export type DiagnosticCode = ManifestDiagnosticCode | ReconcileDiagnosticCode | KindDiagnosticCode;

/**
 * A code of the gateway's validator, as the gateway sends it (e.g.
 * `MAPPING_WITHOUT_BACKEND_GROUP`; docs/gateway-api.md "Validator messages").
 */
export type GatewayValidatorCode = string & Record<never, never>;

/** The code of a validator message that came without a code of its own. */
export const VALIDATOR_MESSAGE_CODE = 'validator-message';

/** How bad a problem is. `info` comes only from the gateway's validator (`INFO` messages). */
export type DiagnosticSeverity = 'error' | 'warning' | 'info';

/** The object a diagnostic is about: the kind and the name a manifest gives it. */
export interface DiagnosticObject {
  /** The resource type (a kind's name, e.g. `mapping`); a plain string so that this module depends on nothing of gwops. */
  readonly kind: string;
  readonly name: string;
}

/** What every diagnostic says. */
interface DiagnosticBase {
  readonly severity: DiagnosticSeverity;
  /** Stable machine code, e.g. `unknown-attribute`, or the gateway validator's code. */
  readonly code: DiagnosticCode | GatewayValidatorCode;
  /**
   * JSON pointer (RFC 6901) inside the document at `file`, `''` for the document itself;
   * present whenever the diagnostic is located in a manifest.
   */
  readonly pointer?: string;
  /** The object the problem is about, when it is about one (for machines and tables; the message names it too). */
  readonly object?: DiagnosticObject;
  /**
   * What is wrong and what would be right, complete on its own: it names the object it is
   * about. Never contains a secret value.
   */
  readonly message: string;
}

/** Where in a manifest a diagnostic points. */
export interface DiagnosticLocation {
  /** File as given on the command line or relative to the working directory; `-` for stdin. */
  readonly file: string;
  /** 1-based line. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

/** A diagnostic without a position (e.g. a validator message about an object no manifest declares). */
interface Unlocated {
  readonly file?: undefined;
  readonly line?: undefined;
  readonly column?: undefined;
}

/**
 * One problem, wherever it was found: severity, stable code, message, and optionally the
 * source location (file, line, column, JSON pointer) and the object it is about.
 * Diagnostics of the manifest loader are always located.
 */
export type Diagnostic = DiagnosticBase & (DiagnosticLocation | Unlocated);

/**
 * A diagnostic about an object, located at the start of the document that declares it
 * when `source` is known (pointer `''`: the document itself).
 */
export function objectDiagnostic(init: {
  readonly severity?: DiagnosticSeverity;
  readonly code: DiagnosticCode | GatewayValidatorCode;
  readonly object?: DiagnosticObject | undefined;
  readonly source?: DiagnosticLocation | undefined;
  readonly message: string;
}): Diagnostic {
  const { source, object } = init;
  const base = {
    severity: init.severity ?? 'error',
    code: init.code,
    ...(object ? { object: { kind: object.kind, name: object.name } } : {}),
    message: init.message,
  } as const;
  return source ? { ...base, file: source.file, line: source.line, column: source.column, pointer: '' } : base;
}

function compareText(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Orders diagnostics by file, line, column (then code, for a stable order); those without
 * a location last, in their given order. Returns a new array.
 */
export function sortDiagnostics<D extends Diagnostic>(diagnostics: readonly D[]): D[] {
  return [...diagnostics].sort(
    (a, b) =>
      compareText(a.file, b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      (a.file === undefined ? 0 : compareText(a.code, b.code)),
  );
}

/** True when any diagnostic is an error. */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** The number of diagnostics of each severity. */
export function countDiagnostics(diagnostics: readonly Diagnostic[]): Readonly<Record<DiagnosticSeverity, number>> {
  const counts: Record<DiagnosticSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity] += 1;
  return counts;
}

/**
 * The diagnostics of one stage or run, as one value (Terraform's `tfdiags.Diagnostics`):
 * immutable, `append` returns a new value. Errors among them become one typed error through {@link Diagnostics.toError} / {@link Diagnostics.throwIfErrors}
 * (the error classes that carry diagnostics extend `DiagnosticsError`, src/core/errors.ts).
 */
export class Diagnostics implements Iterable<Diagnostic> {
  /** No diagnostics. */
  static readonly none = new Diagnostics([]);

  private constructor(private readonly items: readonly Diagnostic[]) {}

  /** The diagnostics given, in their order. */
  static of(...items: readonly (Diagnostic | readonly Diagnostic[] | Diagnostics)[]): Diagnostics {
    return Diagnostics.none.append(...items);
  }

  /** A new value with `items` after these (each a diagnostic, a list or another value). */
  append(...items: readonly (Diagnostic | readonly Diagnostic[] | Diagnostics)[]): Diagnostics {
    const added = items.flatMap((item) => (item instanceof Diagnostics ? item.items : Array.isArray(item) ? (item as readonly Diagnostic[]) : [item as Diagnostic]));
    return added.length === 0 ? this : new Diagnostics([...this.items, ...added]);
  }

  /** Every diagnostic, in order. */
  all(): readonly Diagnostic[] {
    return this.items;
  }

  get length(): number {
    return this.items.length;
  }

  [Symbol.iterator](): Iterator<Diagnostic> {
    return this.items[Symbol.iterator]();
  }

  /** True when any diagnostic is an error. */
  hasErrors(): boolean {
    return hasErrors(this.items);
  }

  /** The diagnostics of severity error. */
  errors(): readonly Diagnostic[] {
    return this.items.filter((d) => d.severity === 'error');
  }

  /** The diagnostics of severity warning. */
  warnings(): readonly Diagnostic[] {
    return this.items.filter((d) => d.severity === 'warning');
  }

  /**
   * The one error these diagnostics amount to: `make(this)` (e.g. `(d) => new
   * ManifestError(d.all())`) when any is an error, else undefined.
   */
  toError<E extends Error>(make: (diagnostics: Diagnostics) => E): E | undefined {
    return this.hasErrors() ? make(this) : undefined;
  }

  /** Throws {@link toError}'s error when any diagnostic is an error; else returns these diagnostics. */
  throwIfErrors(make: (diagnostics: Diagnostics) => Error): this {
    const error = this.toError(make);
    if (error) throw error;
    return this;
  }
}

/**
 * What an operation returns (Terraform's `(result, tfdiags.Diagnostics)` pair): its
 * result and the diagnostics it found on the way that did not stop it (warnings, the
 * gateway validator's messages). Diagnostics that stop an operation are thrown once, as
 * the error {@link Diagnostics.toError} makes of them.
 */
export interface Diagnosed<T> {
  readonly result: T;
  readonly diagnostics: Diagnostics;
}
