/**
 * The gateway objects of the bench scenarios (tools/bench/apply-data.ts, tools/bench/scale.ts):
 * a {@link Shape} of mappings, each linked to one of a few shared back-end groups and
 * virtual hosts, and their names and attributes. Pure, and free of the emulator, so the
 * bare client's process (tools/bench/probe.ts) loads nothing more than it needs.
 */

/** Shape of a scenario's gateway objects. */
export interface Shape {
  readonly mappings: number;
  readonly groups: number;
  readonly hosts: number;
  /** Every `changeEvery`-th mapping gets another back-end path (0: none). */
  readonly changeEvery: number;
}

export const mappingName = (i: number): string => `bench-m${String(i).padStart(5, '0')}`;
export const groupName = (g: number): string => `bench-bg${g}`;
export const hostName = (h: number): string => `bench-vh${h}`;
export const isChanged = (shape: Shape, i: number): boolean => shape.changeEvery > 0 && i % shape.changeEvery === 0;

export function mappingAttributes(i: number, changed: boolean): Record<string, unknown> {
  return { labels: ['bench'], entryPath: { value: `/app${i}/` }, backendPath: changed ? '/v2/' : '/' };
}
export function groupAttributes(g: number): Record<string, unknown> {
  return { backendHosts: [{ protocol: 'HTTP', hostName: `app${g}.bench.internal`, port: 8080 }] };
}
export function hostAttributes(h: number): Record<string, unknown> {
  return { hostName: `vh${h}.bench.example.com`, networkInterface: { https: { enabled: false, http2Allowed: false } } };
}

/** The collections a scenario's project declares and owns, so the ones gwops lists. */
export const SCENARIO_COLLECTIONS: readonly string[] = ['mappings', 'back-end-groups', 'virtual-hosts'];
