/**
 * The arbitraries of the adopt drill (test/drills/adopt.test.ts): a project of back-end
 * groups and mappings (some extending a mapping template, links declared from either side),
 * written with every collection in flow or block style and keys in random order, with one
 * target or two (staging with an overlay directory that sets some attributes, production
 * reading the base alone); and the live changes made behind gwops's back on staging (a port
 * or host name inside a list item, hosts added and removed, a nested boolean, a string
 * holding `${...}`, an attribute the template gives, a list inside a list item, a mapping
 * moved to another group).
 */
import fc from 'fast-check';
import { Document, isCollection, visit } from 'yaml';

export interface Host {
  readonly hostName: string;
  readonly port: number;
  /** Keys in this order. */
  readonly order: readonly string[];
}

export interface Group {
  readonly hosts: readonly Host[];
  readonly checks: boolean;
  /** Staging's overlay sets these hosts instead (two-target projects). */
  readonly overlayHosts?: readonly Host[];
}

export interface Mapping {
  readonly group: number;
  /** The link is declared on the group's side (`mappings: [...]`) rather than the mapping's. */
  readonly declaredOnGroup: boolean;
  readonly extendsTemplate: boolean;
  readonly backendPath: string;
  readonly restrictions: readonly { readonly enabled: boolean; readonly roles: readonly string[] }[];
}

export interface World {
  readonly groups: readonly Group[];
  readonly mappings: readonly Mapping[];
  /** Two targets (staging with an overlay directory, production) or staging alone. */
  readonly twoTargets: boolean;
  /** Flow (true) or block style for each collection in turn (cycled). */
  readonly flow: readonly boolean[];
}

/** One change made on the staging gateway; indexes are taken modulo the counts. */
export type Mutation =
  | { readonly op: 'port'; readonly group: number; readonly host: number; readonly port: number }
  | { readonly op: 'host-name'; readonly group: number; readonly host: number; readonly name: string }
  | { readonly op: 'add-host'; readonly group: number; readonly name: string }
  | { readonly op: 'remove-host'; readonly group: number }
  | { readonly op: 'checks'; readonly group: number }
  | { readonly op: 'backend-path'; readonly mapping: number; readonly value: string }
  | { readonly op: 'threat-handling'; readonly mapping: number; readonly value: 'NOTIFY' | 'TERMINATE_SESSION' }
  | { readonly op: 'roles'; readonly mapping: number; readonly restriction: number; readonly roles: readonly string[] }
  | { readonly op: 'move'; readonly mapping: number; readonly group: number };

const label = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
const port = fc.integer({ min: 1, max: 65535 });
const HOST_KEYS = ['hostName', 'port', 'protocol'];
const order = fc.shuffledSubarray(HOST_KEYS, { minLength: 3, maxLength: 3 });
const host = fc.record({ hostName: label.map((l) => `${l}.internal`), port, order });
const hosts = fc.array(host, { minLength: 1, maxLength: 3 });
const roles = fc.uniqueArray(label, { minLength: 1, maxLength: 3 });
/** A path as the manifests write it: plain, or with a literal `${` written escaped. */
const path = fc.oneof(label.map((l) => `/${l}/`), label.map((l) => `/$\${${l.toUpperCase()}}/`));
/** A path as the gateway may hold it: plain, or holding what would read as a variable reference. */
const livePath = fc.oneof(label.map((l) => `/${l}/`), label.map((l) => `/${l}/\${HOME}/`), label.map((l) => `/$\${${l.toUpperCase()}:-x}/`));

export function worldArbitrary(): fc.Arbitrary<World> {
  return fc.record({ groupCount: fc.integer({ min: 1, max: 3 }), twoTargets: fc.boolean() }).chain(({ groupCount, twoTargets }) =>
    fc.record({
      groups: fc.array(fc.record({ hosts, checks: fc.boolean(), overlayHosts: fc.option(hosts, { nil: undefined }) }), { minLength: groupCount, maxLength: groupCount }),
      mappings: fc.array(
        fc.record({
          group: fc.nat(groupCount - 1),
          declaredOnGroup: fc.boolean(),
          extendsTemplate: fc.boolean(),
          backendPath: path,
          restrictions: fc.array(fc.record({ enabled: fc.boolean(), roles }), { minLength: 1, maxLength: 2 }),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      twoTargets: fc.constant(twoTargets),
      flow: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    }),
  );
}

export function mutationsArbitrary(): fc.Arbitrary<Mutation[]> {
  const i = fc.nat(9);
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ op: fc.constant('port' as const), group: i, host: i, port }),
    fc.record({ op: fc.constant('host-name' as const), group: i, host: i, name: label.map((l) => `${l}.moved.internal`) }),
    fc.record({ op: fc.constant('add-host' as const), group: i, name: label.map((l) => `${l}.added.internal`) }),
    fc.record({ op: fc.constant('remove-host' as const), group: i }),
    fc.record({ op: fc.constant('checks' as const), group: i }),
    fc.record({ op: fc.constant('backend-path' as const), mapping: i, value: livePath }),
    fc.record({ op: fc.constant('threat-handling' as const), mapping: i, value: fc.constantFrom('NOTIFY' as const, 'TERMINATE_SESSION' as const) }),
    fc.record({ op: fc.constant('roles' as const), mapping: i, restriction: i, roles }),
    fc.record({ op: fc.constant('move' as const), mapping: i, group: i }),
  );
  return fc.array(mutation, { minLength: 1, maxLength: 4 });
}

export const groupName = (prefix: string, i: number): string => `${prefix}g${i}`;
export const mappingName = (prefix: string, i: number): string => `${prefix}m${i}`;
export const TEMPLATE = 'hardened';

function hostValue(h: Host): Record<string, unknown> {
  const value: Record<string, unknown> = { hostName: h.hostName, port: h.port, protocol: 'HTTP' };
  return Object.fromEntries(h.order.map((k) => [k, value[k]]));
}

/** YAML text of documents, every collection in flow or block style as `flow` says, in turn. */
function yamlText(documents: readonly Record<string, unknown>[], flow: readonly boolean[]): string {
  let n = 0;
  return documents
    .map((value) => {
      const doc = new Document(value);
      visit(doc, {
        Map(_key, node) {
          if (node !== doc.contents && isCollection(node)) node.flow = flow[n++ % flow.length] ?? false;
        },
        Seq(_key, node) {
          node.flow = flow[n++ % flow.length] ?? false;
        },
      });
      return doc.toString({ lineWidth: 0 });
    })
    .join('---\n');
}

/** The project's files (relative path → text) for `prefix`, with both targets' connections. */
export function worldFiles(world: World, prefix: string, connection: { staging: string; production: string }): Record<string, string> {
  const templateTarget = `${prefix}${TEMPLATE}`;
  const groups = world.groups.map((g, i) => {
    const linked = world.mappings.flatMap((m, j) => (m.group === i && m.declaredOnGroup ? [mappingName(prefix, j)] : []));
    return {
      apiVersion: 'gwops/v1',
      kind: 'back-end-group',
      name: groupName(prefix, i),
      attributes: { backendHosts: g.hosts.map(hostValue), outOfBandChecks: { enabled: g.checks } },
      ...(linked.length > 0 ? { relationships: { mappings: linked } } : {}),
    };
  });
  const mappings = world.mappings.map((m, j) => ({
    apiVersion: 'gwops/v1',
    kind: 'mapping',
    name: mappingName(prefix, j),
    ...(m.extendsTemplate ? { extends: templateTarget } : {}),
    attributes: {
      entryPath: { value: `/${prefix}${j}/` },
      backendPath: m.backendPath,
      ...(m.extendsTemplate ? {} : { threatHandling: 'BLOCK' }),
      access: { restrictions: m.restrictions.map((r) => ({ enabled: r.enabled, authorizedRoles: [...r.roles] })) },
    },
    ...(m.declaredOnGroup ? {} : { relationships: { 'back-end-groups': [groupName(prefix, m.group)] } }),
  }));
  const template = { apiVersion: 'gwops/v1', kind: 'mapping-template', name: templateTarget, attributes: { threatHandling: 'BLOCK' } };
  const target = (name: string, url: string, overlays: boolean): Record<string, unknown> => ({ [name]: { url, apiKeyFile: `${name}-key`, ...(overlays ? { overlays: ['overlays/staging'] } : {}) } });
  const project = {
    manifests: ['manifests'],
    targets: { ...target('staging', connection.staging, world.twoTargets), ...(world.twoTargets ? target('production', connection.production, false) : {}) },
    ownership: { 'back-end-group': [`name=@${prefix}`], mapping: [`name=@${prefix}`] },
  };
  const files: Record<string, string> = {
    'gwops.yaml': yamlText([project], [false]),
    'manifests/groups.yaml': `# back-end groups\n${yamlText(groups, world.flow)}`,
    'manifests/mappings.yaml': `# mappings\n${yamlText([template, ...mappings], [...world.flow].reverse())}`,
  };
  const overlays = world.twoTargets
    ? world.groups.flatMap((g, i) => (g.overlayHosts ? [{ kind: 'back-end-group', name: groupName(prefix, i), attributes: { backendHosts: g.overlayHosts.map(hostValue) } }] : []))
    : [];
  files['overlays/staging/groups.yaml'] = overlays.length > 0 ? `# staging's hosts\n${yamlText(overlays, world.flow)}` : '# staging sets nothing yet\n';
  return files;
}
