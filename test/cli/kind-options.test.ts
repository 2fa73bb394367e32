/**
 * The options a kind adds to `gwops export` and `gwops init` (KindDefinition `exportOption`)
 * are registered by the commands from the registry (src/cli/kind-options.ts): every kind's
 * switch appears in both commands, and its value decides whose sub-resources are read.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addKindOptions, givenKindOptions, subResourceKinds } from '../../src/cli/kind-options.js';
import { KINDS } from '../../src/kinds/index.js';

const WITH_OPTION = KINDS.filter((k) => k.exportOption !== undefined);

function parsed(use: 'export' | 'init', args: string[]): Record<string, unknown> {
  const command = addKindOptions(new Command('x').exitOverride(), use);
  command.parse(args, { from: 'user' });
  return command.opts();
}

describe('the kinds’ export options', () => {
  it('each kind with sub-resources has a switch, and each switch belongs to such a kind', () => {
    expect(WITH_OPTION.length).toBeGreaterThan(0);
    expect(WITH_OPTION.map((k) => k.type)).toEqual(KINDS.filter((k) => Object.keys(k.subResources ?? {}).length > 0).map((k) => k.type));
  });

  it.each(['export', 'init'] as const)('%s registers --NAME and --no-NAME of every kind, with the kind’s help', (use) => {
    const command = addKindOptions(new Command('x'), use);
    for (const kind of WITH_OPTION) {
      const name = kind.exportOption?.name ?? '';
      const help = kind.exportOption?.help[use];
      const prefix = use === 'init' ? 'with --from-gateway: ' : '';
      expect(command.options.map((o) => [o.long, o.description])).toEqual(expect.arrayContaining([[`--${name}`, `${prefix}${help?.on ?? ''}`], [`--no-${name}`, `${prefix}${help?.off ?? ''}`]]));
    }
  });

  it('reads every kind’s sub-resources by default and with --NAME, and skips a kind with --no-NAME', () => {
    const all = WITH_OPTION.map((k) => k.type);
    expect(subResourceKinds(parsed('export', []))).toEqual(all);
    expect(givenKindOptions(parsed('export', []))).toEqual([]);
    for (const kind of WITH_OPTION) {
      const name = kind.exportOption?.name ?? '';
      expect(subResourceKinds(parsed('export', [`--${name}`]))).toEqual(all);
      expect(subResourceKinds(parsed('export', [`--no-${name}`]))).toEqual(all.filter((t) => t !== kind.type));
      expect(givenKindOptions(parsed('init', [`--no-${name}`]))).toEqual([`--no-${name}`]);
      expect(givenKindOptions(parsed('init', [`--${name}`]))).toEqual([`--${name}`]);
    }
  });
});
