/**
 * The variables of a project that hold an API key or a secret, which `${VAR}` may not
 * name (README.md "Manifests"): `GWOPS_API_KEY`, every target's `apiKeyEnv`, and every
 * variable a `{ fromEnv }` source reads. A reference to one is a located error, and it is
 * substituted by the empty string, so the value never enters a document, a message or a
 * request (another target's key sent to this one, a key shown in an error).
 */
import { setOwnMember } from '../core/own-member.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { ParsedDocument } from './positions.js';
import { makeDiagnostic } from './positions.js';
import type { ProjectConfig } from './project.js';
import { attributePath } from './schema-check.js';
import { referencesTo } from './variables.js';

/**
 * The variable of the API key when no target names its own (`API_KEY_ENV` of
 * src/gateway/connection.ts, which the loader does not import: it would load the HTTP client).
 */
export const GLOBAL_API_KEY_ENV = 'GWOPS_API_KEY';

/** What a guarded variable holds, as messages say it. */
export type GuardedKind = 'an API key' | 'a secret';

/** The guarded variables of a run and the environment that `${VAR}` substitution reads. */
export interface VariableGuard {
  /** Guarded variable names and what each holds. */
  readonly names: ReadonlyMap<string, GuardedKind>;
  /** The environment with every guarded variable empty (for `${VAR}` only, never for `{ fromEnv }`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The values of the guarded variables that are set: for the run's redactor, never to be printed. */
  readonly values: readonly string[];
}

/** Calls `found` with every `fromEnv` variable name written in `value` (at any depth). */
function fromEnvNames(value: unknown, found: (name: string) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) fromEnvNames(item, found);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'fromEnv' && typeof item === 'string') found(item);
      else if (typeof item === 'object') fromEnvNames(item, found);
    }
  }
}

/**
 * The guard of a run: the key variables of `project` and the `{ fromEnv }` variables of
 * `documents` (base documents and overlays, before substitution).
 */
export function variableGuard(
  project: ProjectConfig,
  documents: readonly ParsedDocument[],
  env: Readonly<Record<string, string | undefined>>,
): VariableGuard {
  const names = new Map<string, GuardedKind>([[GLOBAL_API_KEY_ENV, 'an API key']]);
  for (const target of Object.values(project.targets)) if (target.apiKeyEnv !== undefined) names.set(target.apiKeyEnv, 'an API key');
  for (const doc of documents) if (doc.hints?.fromEnv !== false) fromEnvNames(doc.value, (name) => names.has(name) || names.set(name, 'a secret'));
  // Guarded names shadow the environment (which may be any object that answers reads, a Proxy included).
  const masked = Object.create(env) as Record<string, string | undefined>;
  const values: string[] = [];
  for (const name of names.keys()) {
    const value = env[name];
    if (value === undefined) continue;
    values.push(value, value.trim());
    setOwnMember(masked, name, '');
  }
  return { names, env: masked, values };
}

/** Appends an error for every `${VAR}` of `parsed` that names a guarded variable (located, never with its value). */
export function checkGuardedReferences(parsed: ParsedDocument, guard: VariableGuard, out: Diagnostic[]): void {
  const uses = referencesTo(parsed.value, new Set(guard.names.keys()));
  for (const use of uses) {
    const holds = guard.names.get(use.name) ?? 'a secret';
    const instead = holds === 'an API key' ? 'an API key never goes into a manifest: remove the reference' : `read it where a secret belongs, with { fromEnv: ${use.name} }`;
    out.push(
      makeDiagnostic(parsed, {
        code: 'secret-variable',
        pointer: use.path,
        message: `'\${${use.name}}' at '${attributePath(use.path)}': environment variable '${use.name}' holds ${holds}, which \${VAR} may not name (${instead})`,
      }),
    );
  }
}
