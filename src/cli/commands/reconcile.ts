import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { Option } from 'commander';
import { UsageError } from '../../errors.js';
import type { Variant } from '../../kinds/index.js';
import { formatDiagnostics } from '../../manifest/index.js';
import { activationComment, readCommitInfo } from '../../reconcile/commit-comment.js';
import type { LocatedValidatorMessage, RunInput } from '../../reconcile/run.js';
import { ApplyFailedError, ManifestError, ValidatorRejectedError, runApply, runDrift, runPlan } from '../../reconcile/run.js';
import type { Plan } from '../../reconcile/plan-types.js';
import { renderDrift, renderExecutionReport, renderValidatorMessages } from '../../render/run-report.js';
import { renderJson, renderMarkdown, renderText } from '../../render/index.js';
import { EXIT, EXIT_CODES_HELP } from '../exit.js';
import type { CliIO, CommandModule } from '../io.js';

type Format = 'text' | 'markdown' | 'json';

interface CommonFlags {
  config?: string;
  target?: string;
  url?: string;
  apiKeyFile?: string;
  caFile?: string;
  insecure?: boolean;
  variant?: Variant;
  prune?: boolean;
  allowMassDelete?: boolean;
  format: Format;
}

function addConnectionOptions(command: Command): Command {
  return command
    .addHelpText('after', EXIT_CODES_HELP)
    .option('--config <file>', 'project file (default: gwops.yaml in the current directory)')
    .option('--target <name>', "a target of the project file (its URL, key, variant and overlays)")
    .option('--url <url>', 'base URL of the configuration REST API, e.g. https://gw:443/airlock/rest')
    .option('--api-key-file <file>', 'file holding the API key (else GWOPS_API_KEY or the target\'s apiKeyEnv/apiKeyFile)')
    .option('--ca-file <file>', 'PEM file of an extra CA to trust')
    .option('--insecure', 'skip TLS certificate verification (not recommended)')
    .addOption(new Option('--variant <variant>', 'gateway variant (default: the target\'s, else latest)').choices(['earliest', 'middle', 'latest']));
}

function colorEnabled(io: CliIO): boolean {
  return io.isTTY && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
}

function runInput(paths: string[], flags: CommonFlags, io: CliIO): RunInput {
  return {
    paths,
    cwd: io.cwd,
    env: io.env,
    stdin: io.stdin,
    configFile: flags.config,
    target: flags.target,
    url: flags.url,
    apiKeyFile: flags.apiKeyFile,
    caFile: flags.caFile,
    insecure: flags.insecure,
    variant: flags.variant,
    prune: flags.prune,
    allowMassDelete: flags.allowMassDelete,
    warn: (message) => void io.stderr.write(`Warning: ${message}\n`),
  };
}

function renderPlan(plan: Plan, format: Format, io: CliIO, messages: readonly LocatedValidatorMessage[] | undefined): string {
  switch (format) {
    case 'json':
      return renderJson(plan);
    case 'markdown':
      return renderMarkdown(plan, messages ? { validatorMessages: messages } : {});
    case 'text':
      return renderText(plan, { color: colorEnabled(io) }) + (messages ? renderValidatorMessages(messages, { color: colorEnabled(io) }) : '');
  }
}

/** Prints what a typed failure carries (diagnostics, validator messages, step report), then rethrows it for the exit code. */
function explain(error: unknown, io: CliIO): never {
  if (error instanceof ManifestError) {
    io.stderr.write(formatDiagnostics(error.diagnostics, 'text', { color: colorEnabled(io) }));
    io.stderr.write('\n');
  } else if (error instanceof ValidatorRejectedError) {
    io.stderr.write(renderValidatorMessages(error.messages, { color: colorEnabled(io) }));
  } else if (error instanceof ApplyFailedError) {
    io.stderr.write(renderExecutionReport(error.plan, error.report));
  }
  throw error;
}

async function ask(io: CliIO, question: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream, terminal: false });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

/** Registers `gwops plan`, `gwops apply` and `gwops drift`. */
export const registerReconcile: CommandModule = (program, io, done) => {
  addConnectionOptions(
    program
      .command('plan')
      .description('Show the API calls that would make the gateway match the manifests (checked by the gateway, never persisted)')
      .argument('[paths...]', 'manifest files or directories (default: the project file\'s manifests); - for stdin'),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'))
    .option('--out <file>', 'also write the plan as JSON (for apply --plan)')
    .option('--detailed-exitcode', 'exit 2 when there are changes')
    .option('--no-server-check', 'do not execute the plan in a throw-away session to read the validator messages')
    .option('--prune', 'delete owned live objects that no manifest declares')
    .option('--allow-mass-delete', 'allow deleting all, or more than the configured share, of the owned objects of a kind')
    .action(async (paths: string[], flags: CommonFlags & { out?: string; detailedExitcode?: boolean; serverCheck: boolean }) => {
      const result = await runPlan({ ...runInput(paths, flags, io), serverCheck: flags.serverCheck }).catch((e: unknown) => explain(e, io));
      io.stdout.write(renderPlan(result.plan, flags.format, io, result.messages));
      if (flags.out) await writeFile(resolve(io.cwd, flags.out), renderJson(result.plan));
      if (result.messages?.some((m) => m.severity === 'ERROR')) return done(EXIT.validatorErrors);
      done(flags.detailedExitcode && result.plan.steps.length > 0 ? EXIT.changes : EXIT.ok);
    });

  addConnectionOptions(
    program
      .command('apply')
      .description('Execute the plan in one session and activate it when the gateway\'s validator reports no error')
      .argument('[paths...]', 'manifest files or directories (default: the project file\'s manifests)'),
  )
    .addOption(new Option('--format <format>', 'how to show the plan').choices(['text', 'markdown', 'json']).default('text'))
    .option('--plan <file>', 'apply a plan saved with plan --out (refused when the live state changed since)')
    .option('--comment <text>', 'activation comment (default: derived from the commit)')
    .option('--yes', 'do not ask for confirmation')
    .option('--prune', 'delete owned live objects that no manifest declares')
    .option('--allow-mass-delete', 'allow deleting all, or more than the configured share, of the owned objects of a kind')
    .action(async (paths: string[], flags: CommonFlags & { plan?: string; comment?: string; yes?: boolean }) => {
      const interactive = io.isTTY && io.env.CI !== 'true' && !flags.yes;
      const comment = flags.comment ?? activationComment(readCommitInfo(io.env, io.cwd));
      const color = colorEnabled(io);
      const result = await runApply({
        ...runInput(paths, flags, io),
        planFile: flags.plan,
        comment,
        onPlan: (plan) => void io.stdout.write(renderPlan(plan, flags.format, io, undefined)),
        confirm: async () => {
          if (!interactive) return true;
          const answer = await ask(io, '\nDo you want to apply these changes? Only "yes" is accepted: ');
          return answer.trim() === 'yes';
        },
        onProgress: io.isTTY
          ? ({ step, phase, total }) => {
              if (phase === 'done') io.stderr.write(`  [${step.index}/${total}] ${step.action} ${step.kind} '${step.name}' done\n`);
            }
          : undefined,
      }).catch((e: unknown) => explain(e, io));
      if (result.messages.length > 0) io.stdout.write(renderValidatorMessages(result.messages, { color }));
      if (result.activated) {
        io.stdout.write(`\nApply complete: configuration activated with comment "${result.comment ?? ''}".\n`);
      } else if (result.plan.steps.length > 0) {
        io.stdout.write('\nApply cancelled: nothing was changed.\n');
      }
      done(EXIT.ok);
    });

  addConnectionOptions(
    program
      .command('drift')
      .description('Report whether the live gateway differs from the manifests (exit 2 when it does)')
      .argument('[paths...]', 'manifest files or directories (default: the project file\'s manifests)'),
  )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'))
    .action(async (paths: string[], flags: CommonFlags) => {
      if (flags.prune) throw new UsageError('drift never changes anything; --prune belongs to plan and apply');
      const result = await runDrift(runInput(paths, flags, io)).catch((e: unknown) => explain(e, io));
      io.stdout.write(
        flags.format === 'text' ? renderDrift(result.plan, { color: colorEnabled(io) }) : renderPlan(result.plan, flags.format, io, undefined),
      );
      done(result.drifted ? EXIT.changes : EXIT.ok);
    });
};
