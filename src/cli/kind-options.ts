/**
 * The options the kinds add to `gwops export` and `gwops init` (KindDefinition
 * `exportOption`, src/kinds/kind.ts): the commands register them here for every kind that
 * has one, so that no command names a kind's option.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { KINDS } from '../kinds/index.js';
import type { ExportOption, ResourceType } from '../kinds/index.js';

/** The command an option is registered for: `init` takes it only with `--from-gateway`. */
export type KindOptionCommand = 'export' | 'init';

/** The kinds' switches with the kind each belongs to, in registry order. */
const SWITCHES: readonly { readonly type: ResourceType; readonly option: ExportOption }[] = KINDS.flatMap((k) => (k.exportOption ? [{ type: k.type, option: k.exportOption }] : []));

/** The key under which commander keeps the value of `--<name>`: true, false with `--no-<name>`, undefined when not given. */
function key(option: ExportOption): string {
  return new Option(`--${option.name}`).attributeName();
}

/**
 * Adds `--<name>` and `--no-<name>` of every kind's {@link ExportOption} to `command`, with
 * their help for `use` (after `with --from-gateway: ` for `init`).
 * @returns `command`, for chaining
 */
export function addKindOptions<C extends Command>(command: C, use: KindOptionCommand): C {
  const prefix = use === 'init' ? 'with --from-gateway: ' : '';
  for (const { option } of SWITCHES) {
    command.option(`--${option.name}`, `${prefix}${option.help[use].on}`);
    command.option(`--no-${option.name}`, `${prefix}${option.help[use].off}`);
  }
  return command;
}

/** The value commander parsed for each kind option, as commander keeps it in `flags`. */
function valuesIn(flags: object): { readonly type: ResourceType; readonly option: ExportOption; readonly value: unknown }[] {
  const parsed = new Map<string, unknown>(Object.entries(flags));
  return SWITCHES.map((s) => ({ ...s, value: parsed.get(key(s.option)) }));
}

/**
 * The kind options given on the command line of `flags`, as written (`--deny-rule-use`,
 * `--no-deny-rule-use`): `init` refuses them without `--from-gateway`.
 */
export function givenKindOptions(flags: object): string[] {
  return valuesIn(flags).flatMap(({ option, value }) => (value === undefined ? [] : [value === false ? `--no-${option.name}` : `--${option.name}`]));
}

/**
 * The kinds whose sub-resources an export reads (`runExport`'s `subResources`): every kind
 * with sub-resources but those whose option was turned off with `--no-<name>`.
 */
export function subResourceKinds(flags: object): ResourceType[] {
  const off = new Set(valuesIn(flags).flatMap(({ type, value }) => (value === false ? [type] : [])));
  return KINDS.filter((k) => Object.keys(k.subResources ?? {}).length > 0 && !off.has(k.type)).map((k) => k.type);
}
