/**
 * The gateway's cross-object rules that a schema cannot express (docs/gateway-api.md
 * "Attributes and server defaults", "Relationships"; the emulator's validator rules in
 * src/kinds/<kind>/emulator.ts and the manifest rules in src/kinds/<kind>/rules.ts), applied
 * to a generated set so that most sets are valid and the drill exercises convergence rather
 * than rejection. This is the one place of the drill that knows particular kinds: the
 * rules are about particular kinds. Sets the fixups do not make valid still count, as not
 * applicable.
 */
import type { Json } from './schema-arbitrary.js';
import type { GenObject, ManifestSet } from './manifest-set.js';

type Attrs = { [key: string]: Json };

function obj(parent: Attrs, key: string): Attrs {
  const value = parent[key];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  const created: Attrs = {};
  parent[key] = created;
  return created;
}

function peek(root: Attrs, ...keys: string[]): Json | undefined {
  let node: Json | undefined = root;
  for (const key of keys) node = node !== null && typeof node === 'object' && !Array.isArray(node) ? node[key] : undefined;
  return node;
}

function clamp(parent: Attrs, key: string, min: number, max: number): void {
  const v = parent[key];
  if (typeof v === 'number') parent[key] = Math.min(max, Math.max(min, v));
}

/** The set with the cross-object rules met where a small change does it (a new object, a link, a value). */
export function fixUp(set: ManifestSet): ManifestSet {
  const objects: GenObject[] = set.objects.map((o) => ({ ...o, attributes: structuredClone(o.attributes), relationships: structuredClone(o.relationships) }));
  const of = (kind: string): GenObject[] => objects.filter((o) => o.kind === kind);
  const declaredOn = (o: GenObject, rel: string): string[] => (o.relationships[rel] ??= []);

  // Every mapping has a back-end group; every group has a host with a host name.
  if (of('mapping').length > 0 && of('back-end-group').length === 0) {
    objects.push({ kind: 'back-end-group', name: 'cv-back-end-group-9', attributes: {}, relationships: {} });
  }
  for (const group of of('back-end-group')) {
    const hosts = Array.isArray(group.attributes.backendHosts) ? group.attributes.backendHosts : [];
    if (!hosts.some((h) => typeof peek(h as Attrs, 'hostName') === 'string' && peek(h as Attrs, 'hostName') !== '')) {
      group.attributes.backendHosts = [...hosts, { protocol: 'HTTP', hostName: 'cv-host.example.internal', port: 8080 }];
    }
  }
  const firstGroup = of('back-end-group')[0];
  const priorities = new Set<number>();
  for (const mapping of of('mapping')) {
    const groupsFromOtherSide = of('back-end-group').some((g) => (g.relationships.mappings ?? []).includes(mapping.name));
    if (firstGroup && !groupsFromOtherSide && declaredOn(mapping, 'back-end-groups').length === 0) declaredOn(mapping, 'back-end-groups').push(firstGroup.name);
    const entryPath = peek(mapping.attributes, 'entryPath');
    if (entryPath !== undefined && entryPath !== null && typeof entryPath === 'object' && !Array.isArray(entryPath)) {
      clamp(entryPath, 'priority', -999, 999);
      if (typeof entryPath.priority === 'number') {
        while (priorities.has(entryPath.priority)) entryPath.priority = entryPath.priority >= 999 ? -999 : entryPath.priority + 1;
        priorities.add(entryPath.priority);
      }
    }
    const general = peek(mapping.attributes, 'limits', 'general');
    if (general !== undefined && general !== null && typeof general === 'object' && !Array.isArray(general)) clamp(general, 'maxRequestBodySize', 0, 2147483647);
  }

  // A virtual host with HTTPS has the certificate (or ACME service) its mode asks for, linked from its own side.
  const certificates = of('ssl-certificate');
  const acme = of('acme-service');
  for (const host of of('virtual-host')) {
    const https = obj(obj(host.attributes, 'networkInterface'), 'https');
    const tls = peek(host.attributes, 'tls');
    const mode = tls !== null && typeof tls === 'object' && !Array.isArray(tls) ? tls.certificateMode : undefined;
    for (const other of [...certificates, ...acme]) other.relationships['virtual-hosts'] = (other.relationships['virtual-hosts'] ?? []).filter((n) => n !== host.name);
    const wantsAcme = mode === 'ACME_SERVICE' && acme[0] !== undefined;
    const certificate = certificates[0];
    if (wantsAcme && acme[0]) {
      host.relationships['acme-service'] = [acme[0].name];
      delete host.relationships['ssl-certificate'];
    } else if (certificate) {
      host.relationships['ssl-certificate'] = [certificate.name];
      delete host.relationships['acme-service'];
      if (mode === 'ACME_SERVICE') obj(host.attributes, 'tls').certificateMode = 'CERTIFICATE';
    } else {
      https.enabled = false;
      if (https.http2Allowed === true) https.http2Allowed = false;
      const t = peek(host.attributes, 'tls');
      if (t !== null && typeof t === 'object' && !Array.isArray(t)) delete t.certificateMode;
      delete host.relationships['ssl-certificate'];
      delete host.relationships['acme-service'];
    }
    if (https.enabled === false && https.http2Allowed === true) https.http2Allowed = false;
  }
  return { ...set, objects };
}
