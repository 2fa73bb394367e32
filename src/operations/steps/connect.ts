/**
 * The connection of a run, one way for every command: `--target`, else `--url`, else the
 * project's only target, through resolveConnection (the key never from a command-line
 * value), with the API key registered for redaction.
 */
import { InputError } from '../../core/errors.js';
import type { ConnectionInput, ResolvedConnection } from '../../gateway/index.js';
import { resolveConnection } from '../../gateway/index.js';
import type { Variant } from '../../kinds/index.js';
import type { ProjectConfig, TargetConfig } from '../../manifest/project.js';
import { loadProject } from '../../manifest/project.js';
import type { SecretRedactor } from '../../core/secrets.js';
import type { DeclaredVariant } from '../../engine/variant.js';
import { ownMember } from '../../core/own-member.js';

/** The connection options of every command that talks to a gateway (`--target`, `--url`, `--api-key-file`, ...). */
export interface ConnectionOptions extends Pick<ConnectionInput, 'url' | 'apiKeyFile' | 'caFile' | 'insecure' | 'timeout' | 'env' | 'cwd'> {
  /** A target of the project file (its URL, key and variant). */
  readonly target?: string | undefined;
  readonly variant?: Variant | undefined;
  /** The run's secret registry: the API key and the session cookie are registered into it. */
  readonly secrets?: SecretRedactor | undefined;
}

/** What a command that reads no manifests needs to reach a gateway. */
export interface GatewayInput extends ConnectionOptions {
  readonly configFile?: string | undefined;
  /** Receives warnings (`--insecure`, a failed session terminate). */
  readonly warn: (message: string) => void;
}

/** A resolved connection plus the gateway's variant and the target it came from. */
export interface GatewayConnection {
  readonly connection: ResolvedConnection & { readonly secrets?: SecretRedactor };
  /**
   * `--variant`, else the target's, else `latest`: the variant before the gateway is asked
   * (a session reads the gateway's own with `gatewayVariant`, src/engine/variant.ts).
   */
  readonly variant: Variant;
  /** The variant `--variant` or the target declares, and which of them; undefined when neither does. */
  readonly declaredVariant?: DeclaredVariant;
  /** The target selected (by `--target`, or the project's only one), when any. */
  readonly targetName?: string;
  readonly target?: TargetConfig;
}

/**
 * The connection as plan resolves it (`--url` or the target; a project with exactly one
 * target uses it when neither is given), read from the project file alone.
 * @throws InputError, ConfigError, UsageError (as resolveConnection and loadProject)
 */
export function gatewayConnection(input: GatewayInput): GatewayConnection {
  return projectConnection(loadProject(input.cwd, input.configFile), input);
}

/**
 * The connection to the target of `project` that the options select: `--target`, else
 * `--url`, else the project's only target; the API key is registered in `input.secrets`,
 * which rides along on the connection (`secrets`) so that a session opened with it
 * registers its cookie and redacts error details.
 * @throws InputError for an unknown target; ConfigError, UsageError (as resolveConnection)
 */
export function projectConnection(project: ProjectConfig, input: ConnectionOptions): GatewayConnection {
  const names = Object.keys(project.targets);
  if (input.target !== undefined && !(input.target in project.targets)) {
    throw new InputError(`no target '${input.target}' in the project file${names.length > 0 ? ` (targets: ${names.join(', ')})` : ''}`);
  }
  const implicitName = !input.target && !input.url && names.length === 1 ? names[0] : undefined;
  const targetName = input.target ?? implicitName;
  const target = targetName === undefined ? undefined : ownMember(project.targets, targetName);
  const connection = resolveConnection({
    url: input.url,
    target,
    targetName,
    apiKeyFile: input.apiKeyFile,
    caFile: input.caFile,
    insecure: input.insecure,
    timeout: input.timeout,
    env: input.env,
    cwd: input.cwd,
  });
  const declaredVariant: DeclaredVariant | undefined =
    input.variant !== undefined
      ? { variant: input.variant, source: '--variant' }
      : target?.variant !== undefined
        ? { variant: target.variant, source: `the variant of target '${targetName ?? ''}'` }
        : undefined;
  const named = {
    variant: declaredVariant?.variant ?? 'latest',
    ...(declaredVariant !== undefined ? { declaredVariant } : {}),
    ...(targetName !== undefined ? { targetName } : {}),
    ...(target !== undefined ? { target } : {}),
  };
  if (!input.secrets) return { connection, ...named };
  input.secrets.add(connection.apiKey);
  // Object.assign keeps the connection's own (non-enumerable) toJSON, which hides the key.
  return { connection: Object.assign(connection, { secrets: input.secrets }), ...named };
}
