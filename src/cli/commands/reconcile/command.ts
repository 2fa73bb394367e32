import type { Command } from 'commander';
import { Option } from 'commander';
import { UsageError } from '../../../core/errors.js';
import { EXIT } from '../../../core/exit-codes.js';
import type { CommandHelp } from '../../help.js';
import { INTERRUPTED, helpText } from '../../help.js';
import type { CommandModule } from '../../io.js';
import { withProgress } from '../../progress.js';
import type { DriftFlags } from './drift-run.js';
import type { CommonFlags, PlanFlags } from './run.js';

/**
 * `--api-key VALUE`, which people type out of habit: refused with one line that points to
 * the two ways gwops takes a key (a value on the command line lands in the shell history
 * and the process list). The value is never echoed. Hidden from the help.
 */
function refusedApiKeyOption(): Option {
  return new Option('--api-key <key>').hideHelp().argParser((): never => {
    throw new UsageError('--api-key is not accepted: a key on the command line ends up in shell history and process lists; set GWOPS_API_KEY or pass --api-key-file FILE');
  });
}

/** `--plan-signing-key`, refused: the plan-signing key is never taken from a command-line value. */
function refusedPlanSigningKeyOption(): Option {
  return new Option('--plan-signing-key <key>').hideHelp().argParser((): never => {
    throw new UsageError(
      '--plan-signing-key is not accepted: a key on the command line ends up in shell history and process lists; set GWOPS_PLAN_SIGNING_KEY or pass --plan-signing-key-file FILE',
    );
  });
}

/** The plan-signing key options of plan and apply (src/operations/steps/plan-signing.ts). */
function addPlanSigningOptions(command: Command): Command {
  return command
    .option('--plan-signing-key-file <file>', 'file holding the plan-signing key (else GWOPS_PLAN_SIGNING_KEY): plan --out signs the plan file (<file>.sig), apply --plan refuses a file whose signature does not verify')
    .addOption(refusedPlanSigningKeyOption());
}

/** The connection options (README, Commands) of every command that talks to a gateway. */
export function addConnectionOptions(command: Command): Command {
  return command
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .option('--target <name>', "a target of the project file (its URL, key, variant and overlays)")
    .option('--url <url>', 'base URL of the configuration REST API, e.g. https://gw:443/airlock/rest')
    .option('--api-key-file <file>', 'path of a file holding the API key (else the target\'s apiKeyEnv/apiKeyFile, else GWOPS_API_KEY)')
    .addOption(refusedApiKeyOption())
    .option('--ca-file <file>', 'PEM file of an extra CA to trust')
    .option('--insecure', 'skip TLS certificate verification (not recommended)')
    .option('--timeout <seconds>', 'how long each call waits for the gateway\'s answer (else GWOPS_TIMEOUT, else the target\'s timeout, else 120)')
    .addOption(new Option('--variant <variant>', 'gateway variant (default: read from the version the gateway reports; a target\'s or this one must agree with it)').choices(['earliest', 'middle', 'latest']));
}

/** `--quiet`, of the commands that report progress on stderr (src/cli/progress.ts). */
export function addQuietOption(command: Command): Command {
  return command.option('-q, --quiet', 'no progress on stderr (phase, done/total, elapsed time)');
}

/** The `--prune` / `--allow-mass-delete` pair that plan and apply share. */
function addPruneOptions(command: Command): Command {
  return command
    .option('--prune', 'delete owned live objects that no manifest declares')
    .option('--allow-mass-delete', 'allow deleting all, or more than the configured share, of the owned objects of a kind')
    .option('--allow-empty', 'accept paths that hold no manifest document (else an error naming them); with --prune and --allow-mass-delete, the one way to empty the owned part of a gateway');
}

/** The examples and exit codes of `gwops plan --help`. */
export const PLAN_HELP: CommandHelp = {
  examples: [
    { run: 'gwops plan --target prod', does: "what applying the project's manifests to the target prod would change, checked by its validator" },
    { run: 'gwops plan --format markdown --out plan.json --detailed-exitcode', does: 'a pull-request comment on stdout, the plan file for apply --plan, exit 2 when anything changes' },
  ],
  exitCodes: [
    [EXIT.ok, 'the plan was made (no changes, or any without --detailed-exitcode)'],
    [EXIT.error, 'an error: invalid manifests (nothing sent), the gateway unreachable or refusing a call, a usage error'],
    [EXIT.changes, 'changes present (--detailed-exitcode)'],
    [EXIT.validatorErrors, "the gateway's validator found errors in the plan"],
    ...INTERRUPTED,
  ],
};

/** The examples and exit codes of `gwops apply --help`. */
export const APPLY_HELP: CommandHelp = {
  examples: [
    { run: 'gwops apply --target prod', does: 'show the plan, ask, then execute it and activate with a comment from the commit' },
    { run: 'gwops apply --plan plan.json --yes', does: 'apply a plan file saved with plan --out, without asking (CI)' },
  ],
  exitCodes: [
    [EXIT.ok, 'activated, or nothing to change'],
    [EXIT.error, 'an error (a failed step: nothing activated), or the apply cancelled or not approved'],
    [EXIT.validatorErrors, "the gateway's validator found errors (nothing activated)"],
    ...INTERRUPTED,
  ],
};

/** The examples and exit codes of `gwops drift --help`. */
export const DRIFT_HELP: CommandHelp = {
  examples: [
    { run: 'gwops drift --target prod', does: 'what was changed on the gateway outside gwops, per object' },
    { run: 'gwops drift --adopt', does: "write the gateway's changes into the manifest files" },
  ],
  exitCodes: [
    [EXIT.ok, 'no drift (ignored differences do not count)'],
    [EXIT.error, 'an error: invalid manifests, the gateway unreachable or refusing a read, a usage error'],
    [EXIT.changes, 'drift: the gateway differs from the manifests (--fail-on gateway: changed on the gateway)'],
    ...INTERRUPTED,
  ],
};

/** Registers `gwops plan`, `gwops apply` and `gwops drift`. */
export const registerReconcile: CommandModule = (program, io, done) => {
  addPlanSigningOptions(addPruneOptions(addQuietOption(addConnectionOptions(
    program
      .command('plan')
      .addHelpText('after', helpText(PLAN_HELP))
      .description('Show the API calls that would make the gateway match the manifests (checked by the gateway, never persisted)')
      .argument('[paths...]', 'manifest files or directories (default: the project file\'s manifests); - for stdin'),
  ))
    .addOption(new Option('--format <format>', 'output format (github: the plan as text, then the manifests\' warnings and the validator\'s messages as GitHub Actions annotations at their lines)').choices(['text', 'markdown', 'json', 'github']).default('text'))
    .option('--out <file>', 'also write the plan file for apply --plan: the plan, the gateway it was made against and the desired state, secrets as their sources only')
    .option('--max-bytes <n>', 'markdown: the largest output, in bytes of UTF-8 (default 60000, to fit a pull-request comment); validator messages, undeclared objects, the picture and object sections beyond it are left out, each with a note')
    .option('--markdown-out <file>', 'also write the markdown plan within 60000 bytes (a pull-request comment) to <file>, whatever --format and --max-bytes say; deletions, updates and link removals are named first')
    .option('--detailed-exitcode', 'exit 2 when there are changes')
    .option('--no-server-check', 'do not execute the plan in a throw-away session to read the validator messages')
    .option('--verbose', 'show certificates as their PEM (else by subject, SANs, validity and SHA-256 fingerprint); when the server check fails, list every step with its status (else the counts)')))
    .action(async (paths: string[], flags: PlanFlags) => {
      const { planAction } = await import('./run.js');
      done(await withProgress(io, 'plan', flags.quiet, (through, progress) => planAction(paths, flags, through, progress)));
    });

  addPlanSigningOptions(addPruneOptions(addQuietOption(addConnectionOptions(
    program
      .command('apply')
      .addHelpText('after', helpText(APPLY_HELP))
      .description('Execute the plan in one session and activate it when the gateway\'s validator reports no error')
      .argument('[paths...]', 'manifest files or directories (default: the project file\'s manifests; none with --plan)'),
  ))
    .addOption(new Option('--format <format>', 'how to show the plan').choices(['text', 'markdown', 'json']).default('text'))
    .option('--plan <file>', 'apply a plan file saved with plan --out instead of manifests (refused for another gateway, or when the live state changed since)')
    .option('--comment <text>', 'activation comment (default: derived from the commit)')
    .option('-y, --yes', 'apply without asking (needed when there is no terminal to ask on, e.g. in CI)')
    .option('--backup-dir <dir>', "before activating, save the active configuration's export (private keys included; mode 0600) as <dir>/<configuration-id>-<UTC time>-<gateway>.zip")
    .option('--verbose', 'show certificates as their PEM (else by subject, SANs, validity and SHA-256 fingerprint); when a step fails, list every step with its status (else the counts)')
    .option('--retry-on-conflict <n>', 'when another session activated first (409 OUTDATED_CONFIGURATION), plan again in a new session and retry, at most n times (default 0)')))
    .action(async (paths: string[], flags: CommonFlags & { plan?: string; comment?: string; yes?: boolean; backupDir?: string; retryOnConflict?: string }) => {
      const { applyAction } = await import('./run.js');
      done(await withProgress(io, 'apply', flags.quiet, (through, progress) => applyAction(paths, flags, through, progress)));
    });

  addQuietOption(addConnectionOptions(
    program
      .command('drift')
      .addHelpText('after', helpText(DRIFT_HELP))
      .description('Report whether the live gateway differs from the manifests (exit 2 when it does)')
      .argument('[paths...]', 'manifest files or directories (default: the project file\'s manifests)'),
  ))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'))
    .option('--adopt', 'write what was changed on the gateway into the manifest files (never a secret); objects added on the gateway become new files')
    .option('--adopt-deletions', 'with --adopt: also remove the documents of objects deleted on the gateway')
    .addOption(new Option('--fail-on <side>', 'exit 2 for any difference (any), or only for changes made on the gateway since the last apply, conflicts included (gateway)').choices(['any', 'gateway']).default('any'))
    .option('--verbose', 'show certificates as their PEM (else by subject, SANs, validity and SHA-256 fingerprint)')
    .action(async (paths: string[], flags: DriftFlags) => {
      const { driftAction } = await import('./drift-run.js');
      done(await withProgress(io, 'drift', flags.quiet, (through, progress) => driftAction(paths, flags, through, progress)));
    });
};
