/**
 * Manifests of many new objects, for the tests of large plans: `count` back-end groups in
 * one file, named `<prefix>-000`, `<prefix>-001`, …, each with two hosts (so that each
 * object's section of a plan is a few hundred bytes).
 */

/** The name of the `i`th object of {@link manyBackEndGroups}. */
export function groupName(prefix: string, i: number): string {
  return `${prefix}-${String(i).padStart(3, '0')}`;
}

/** `{ 'groups.yaml': … }`, for writeManifests (harness.ts). */
export function manyBackEndGroups(prefix: string, count: number): Record<string, string> {
  const docs = Array.from({ length: count }, (_, i) => {
    const name = groupName(prefix, i);
    return [
      'apiVersion: gwops/v1',
      'kind: back-end-group',
      `name: ${name}`,
      'attributes:',
      '  backendHosts:',
      `    - { protocol: HTTP, hostName: ${name}.internal.example.com, port: 8080 }`,
      `    - { protocol: HTTP, hostName: ${name}-standby.internal.example.com, port: 8080 }`,
    ].join('\n');
  });
  return { 'groups.yaml': `${docs.join('\n---\n')}\n` };
}
