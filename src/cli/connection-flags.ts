/**
 * The connection flags every command that talks to a gateway takes (`--config`,
 * `--target`, `--url`, `--api-key-file`, `--ca-file`, `--insecure`, `--timeout`,
 * `--variant`; declared by addConnectionOptions in commands/reconcile/command.ts), and the one
 * mapping of them to the use cases' input.
 */
import { timeoutOption } from '../gateway/connection.js';
import type { Variant } from '../kinds/index.js';
import type { GatewayInput } from '../operations/steps/connect.js';
import type { CliIO } from './io.js';

/** The connection flags as commander parses them. */
export interface ConnectionFlags {
  config?: string;
  target?: string;
  url?: string;
  apiKeyFile?: string;
  caFile?: string;
  insecure?: boolean;
  /** `--timeout`, in seconds (text as given). */
  timeout?: string;
  variant?: Variant;
}

/**
 * The gateway input of the connection flags; warnings go to stderr, secrets into the
 * run's registry.
 * @throws UsageError for an invalid `--timeout` (checked here, before anything is read)
 */
export function gatewayInput(flags: ConnectionFlags, io: CliIO): GatewayInput {
  return {
    cwd: io.cwd,
    env: io.env,
    configFile: flags.config,
    target: flags.target,
    url: flags.url,
    apiKeyFile: flags.apiKeyFile,
    caFile: flags.caFile,
    insecure: flags.insecure,
    timeout: flags.timeout === undefined ? undefined : timeoutOption(flags.timeout),
    variant: flags.variant,
    warn: (message) => void io.stderr.write(`Warning: ${message}\n`),
    secrets: io.secrets,
  };
}
