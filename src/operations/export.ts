/**
 * The `gwops export` use case: reads the active configuration in one session
 * (load-active, then one GET list per exported kind, narrowed by the `--filter`s; lists of
 * other kinds only to name link ends) and writes it as gwops/v1 manifests. It never plans
 * and never writes to the gateway. The round trip holds: `gwops plan` of the result
 * against the same gateway shows no change.
 */
import { listKind } from './steps/kind-list.js';
import { isAbsolute, relative, resolve } from 'node:path';
import { ConfigError, UsageError } from '../core/errors.js';
import { writeProblem } from '../core/out-paths.js';
import type { ApiResource } from '../gateway/index.js';
import { FilterSyntaxError, isBuiltInId, parseFilters, withSession } from '../gateway/index.js';
import type { ResourceType } from '../kinds/index.js';
import { KINDS, contentResourceOf, isResourceType, kindExistsIn, kindOf, relationshipNamed } from '../kinds/index.js';
import { loadProject } from '../manifest/project.js';
import { joinKey } from '../core/object-key.js';
import { projectConnection } from './steps/connect.js';
import { withSubResources } from './steps/export-sub-resources.js';
import { subResourcesOf } from '../engine/sub-resources.js';
import { gatewayVariant } from '../engine/variant.js';
import type { GatewayInput } from './steps/connect.js';
import { exportAttributes } from '../export/attributes.js';
import { attributeReferences } from '../schema/references.js';
import type { ExportedDocument, SecretVariable } from '../export/build.js';
import { buildDocuments, contentKey } from '../export/build.js';
import type { ExportLayout } from '../export/write.js';
import { isNonEmptyDirectory, manifestPath, renderProjectFile, writeExport } from '../export/write.js';

/** Options of {@link runExport} (command-line flags). */
export interface ExportInput extends GatewayInput {
  /** Output directory (default: `cwd`). */
  readonly out?: string | undefined;
  /**
   * Where the project file (and the secrets example) go, when not in the output directory
   * (`gwops init --from-gateway`: the project root, with the manifests in its `manifests/`);
   * the project file's paths are relative to it.
   */
  readonly projectDir?: string | undefined;
  /** `--kind`: the kinds to export (default: every kind of the variant). */
  readonly kinds?: readonly string[] | undefined;
  /** `--filter`: the API's GET filters, for every exported kind, or for one as `KIND:FILTER`. */
  readonly filters?: readonly string[] | undefined;
  readonly layout: ExportLayout;
  readonly keepDefaults: boolean;
  readonly force: boolean;
  /**
   * Read the sub-resources of every exported object (KindDefinition `subResources`: one GET
   * per object and key) and write those that differ from the defaults (docs/manifest-reference.md
   * "Deny rule use"): of every kind (true), or of the kinds listed. The command line lists every
   * kind but those whose option (KindDefinition `exportOption`) is turned off; a kind left out
   * is listed in the result's `notExported`.
   */
  readonly subResources?: boolean | readonly ResourceType[] | undefined;
  /** Progress lines. (What the export left out or could not name is in the result's `warnings`.) */
  readonly progress?: ((message: string) => void) | undefined;
}

/** Result of {@link runExport}. */
export interface ExportResult {
  /** Absolute output directory. */
  readonly dir: string;
  /** Written files, relative to `dir`. */
  readonly files: readonly string[];
  readonly secrets: readonly SecretVariable[];
  /** What was left out or could not be named (attributes and kinds gwops does not know, objects without a name); the view shows them. */
  readonly warnings: readonly string[];
  /**
   * Everything the export did not write, each a sentence saying what and why (docs/adoption-guide.md
   * "What an export does not write"): what the options left out, built-in objects, values equal to
   * the server defaults, secret values, then each of `warnings`. The view ends with it.
   */
  readonly notExported: readonly string[];
  /** Exported objects per kind. */
  readonly counts: Partial<Record<ResourceType, number>>;
  readonly projectWritten: boolean;
}

/**
 * The filters per exported kind: a plain filter applies to every exported kind,
 * `KIND:FILTER` to that kind only.
 * @throws UsageError for an unknown kind or a filter the API's syntax does not allow
 */
export function filtersByKind(filters: readonly string[], kinds: readonly ResourceType[]): Partial<Record<ResourceType, string[]>> {
  const out: Partial<Record<ResourceType, string[]>> = {};
  for (const given of filters) {
    const colon = given.indexOf(':');
    const prefix = colon > 0 ? given.slice(0, colon) : undefined;
    const scoped = prefix !== undefined && isResourceType(prefix) ? prefix : undefined;
    const filter = scoped !== undefined ? given.slice(colon + 1) : given;
    try {
      parseFilters([filter]);
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw new UsageError(`--filter ${given}: ${error.message}`);
      throw error;
    }
    if (scoped !== undefined && !kinds.includes(scoped)) throw new UsageError(`--filter ${given}: ${scoped} is not exported (see --kind)`);
    for (const kind of scoped !== undefined ? [scoped] : kinds) (out[kind] ??= []).push(filter);
  }
  return out;
}

/** The object a link end is: `type` and `id`. */
const refKey = (kind: string, id: string): string => joinKey(kind, id);

/** `gwops export` (see the module comment). */
export async function runExport(input: ExportInput): Promise<ExportResult> {
  const project = loadProject(input.cwd, input.configFile);
  const { connection, targetName, target, declaredVariant } = projectConnection(project, input);

  for (const kind of input.kinds ?? []) {
    if (!isResourceType(kind)) throw new UsageError(`--kind ${kind} is no resource kind (one of ${KINDS.map((k) => k.type).join(', ')})`);
  }
  // The filters are checked against every kind before connecting, and again against the variant's kinds.
  filtersByKind(input.filters ?? [], input.kinds && input.kinds.length > 0 ? KINDS.map((k) => k.type).filter((k) => input.kinds?.includes(k)) : KINDS.map((k) => k.type));

  const dir = resolve(input.cwd, input.out ?? '.');
  const problem = await writeProblem(dir, 'directory');
  if (problem !== undefined) throw new ConfigError(`cannot export into ${input.out ?? '.'}: ${problem}; nothing was written`);
  if (!input.force && (await isNonEmptyDirectory(dir))) {
    throw new ConfigError(`the output directory ${dir} is not empty; name an empty or new one with --out, or pass --force to write into it`);
  }

  const unknown = new Map<string, number>();
  const nameOnly: string[] = [];
  const contents = new Map<string, Uint8Array>();
  let exported: ResourceType[] = [];
  let filters: Partial<Record<ResourceType, string[]>> = {};
  let available: ResourceType[] = [];
  const lists = await withSession({ ...connection, onWarning: input.warn }, async (session) => {
    // The variant the gateway reports decides which kinds exist (docs/gateway-api.md "Variants").
    const variant = gatewayVariant(await session.nodeVersion(), declaredVariant);
    available = KINDS.filter((k) => kindExistsIn(k, variant)).map((k) => k.type);
    for (const kind of input.kinds ?? []) {
      if (isResourceType(kind) && !available.includes(kind)) throw new UsageError(`--kind ${kind} does not exist in the ${variant} variant of this gateway`);
    }
    exported = input.kinds && input.kinds.length > 0 ? available.filter((k) => input.kinds?.includes(k)) : available;
    filters = filtersByKind(input.filters ?? [], exported);
    await session.loadActive();
    const fetched: Partial<Record<ResourceType, ApiResource[]>> = {};
    for (const kind of exported) {
      input.progress?.(`Reading ${kindOf(kind).collection}${filters[kind] ? ` (${filters[kind].join(' and ')})` : ''}`);
      fetched[kind] = [...(await listKind(session, kindOf(kind), filters[kind] ?? [], {
        project: (resource) => ({
          ...resource,
          attributes: exportAttributes(kind, resource.attributes, {
            variant,
            keepDefaults: input.keepDefaults,
            unknown: (path) => unknown.set(`${kind} attribute ${path}`, (unknown.get(`${kind} attribute ${path}`) ?? 0) + 1),
          }),
        }),
      }))].filter((resource) => !kindOf(kind).singleton || Object.keys(resource.attributes).length > 0);
      // A singleton as the gateway ships it (nothing but defaults) is not written: there is nothing to manage.
    }
    // The other end of every link, and every object an attribute names, needs a name: read the kinds whose linked objects are not
    // among the lists yet (whole, only their identity kept).
    // A kind read whole (exported with no filter) has nothing more to read, and one found missing is read once: only link
    // ends of the other kinds are looked up, in a set of every fetched object made on first use.
    const missing = new Set<ResourceType>();
    const readWhole = new Set(exported.filter((k) => filters[k] === undefined));
    const settled = (kind: ResourceType): boolean => readWhole.has(kind) || missing.has(kind);
    let knownSet: Set<string> | undefined;
    const known = (kind: ResourceType, id: string): boolean => {
      knownSet ??= new Set(Object.entries(fetched).flatMap(([k, list]) => list.map((r) => refKey(k, r.id))));
      return knownSet.has(refKey(kind, id));
    };
    for (const [kind, list] of Object.entries(fetched) as [ResourceType, ApiResource[]][]) {
      for (const r of list) {
        for (const name in r.relationships) {
          const member = r.relationships[name];
          const def = relationshipNamed(kindOf(kind), name);
          if (!def || !member || member.data === null || settled(def.target)) continue;
          for (const ident of Array.isArray(member.data) ? member.data : [member.data]) {
            if (!known(def.target, ident.id)) missing.add(def.target);
          }
        }
        // Attributes that hold another object's id need its name too (src/schema/references.ts).
        for (const reference of attributeReferences(kind, r.attributes)) {
          if (!settled(reference.target) && !known(reference.target, String(reference.value))) missing.add(reference.target);
        }
      }
    }
    // The content of every exported document of a kind that has one (docs/manifest-reference.md "Document content").
    for (const kind of exported.filter((k) => kindOf(k).content === true)) {
      for (const resource of fetched[kind] ?? []) {
        if (isBuiltInId(resource.id)) continue;
        const where = contentResourceOf(kindOf(kind));
        const bytes = await session.readContent(kindOf(kind).collection, resource.id, { kind, name: typeof resource.attributes.name === 'string' ? resource.attributes.name : resource.id }, where);
        // An optional content an object does not have (a virtual host without a revocation list) is no file.
        if (where.optional !== true || bytes.length > 0) contents.set(contentKey(kind, resource.id), bytes);
      }
    }
    // The sub-resources of every exported object, when asked for (docs/manifest-reference.md "Deny rule use").
    for (const kind of exported.filter((k) => subResourcesOf(k).length > 0 && readsSubResources(input, k))) {
      const resources = fetched[kind] ?? [];
      const labels = subResourcesOf(kind).map(([, def]) => `${def.label}s`);
      const of = resources.length === 1 ? `1 ${kind}` : `${resources.length} ${kindOf(kind).collection}`;
      input.progress?.(`Reading the use of ${[labels.slice(0, -1).join(', '), labels.at(-1)].filter(Boolean).join(' and ')} of ${of}`);
      fetched[kind] = await withSubResources(session, { kind, resources, exported: fetched, keepDefaults: input.keepDefaults });
    }
    const lists: Partial<Record<ResourceType, readonly ApiResource[]>> = { ...fetched };
    for (const kind of available.filter((k) => missing.has(k))) {
      const identity = kindOf(kind).identity.attributes;
      const whole = await listKind(session, kindOf(kind), [], {
        project: (resource) => ({ ...resource, attributes: Object.fromEntries(identity.filter((a) => a in resource.attributes).map((a) => [a, resource.attributes[a]])) }),
      });
      // Objects of an exported kind that the filters left out only name link ends.
      const inList = new Set((fetched[kind] ?? []).map((r) => r.id));
      const others = whole.filter((r) => !inList.has(r.id));
      lists[kind] = [...(fetched[kind] ?? []), ...others];
      if (exported.includes(kind)) nameOnly.push(...others.map((r) => refKey(kind, r.id)));
    }
    return lists;
  });

  const built = buildDocuments({ exported, lists, nameOnly: new Set(nameOnly), contents });
  const warnings = [...built.warnings, ...[...unknown].map(([what, count]) => `${what} is not known to gwops: left out (${count} object${count === 1 ? '' : 's'})`)];

  const projectDir = input.projectDir === undefined ? dir : resolve(input.cwd, input.projectDir);
  const inProject = (path: string): string => portable(relative(projectDir, resolve(dir, path))) || '.';
  const manifestPaths = [...new Set(built.documents.map((d) => (input.layout === 'per-kind' ? manifestPath(d, input.layout) : d.kind)))];
  const caFile = input.caFile ?? target?.caFile;
  const projectText = renderProjectFile({
    manifests: (manifestPaths.length > 0 ? manifestPaths : ['.']).map(inProject),
    targetName: targetName ?? 'default',
    url: connection.url,
    caFile: caFile === undefined ? undefined : portable(relative(projectDir, resolve(input.cwd, caFile))),
    variant: input.variant ?? target?.variant,
    ownership: filters,
    allowExternalLinks: built.externalLinks > 0,
  });
  const written = await writeExport(dir, built.documents, input.layout, built.secrets, projectText, input.layout === 'per-object' && input.force ? exported : [], projectDir);
  const counts: Partial<Record<ResourceType, number>> = {};
  for (const document of built.documents) counts[document.kind] = (counts[document.kind] ?? 0) + 1;
  const allWarnings = [...warnings, ...written.renamed];
  const notExported = [...leftOut({ input, available, exported, filters, lists, secrets: built.secrets.length }), ...warnings];
  return { dir, files: written.files, secrets: built.secrets, warnings: allWarnings, notExported, counts, projectWritten: written.projectWritten };
}

/** What {@link leftOut} reads: the options, the kinds of the variant, those exported, their filters, the lists read and how many secrets became variables. */
interface LeftOutInput {
  readonly input: ExportInput;
  readonly available: readonly ResourceType[];
  readonly exported: readonly ResourceType[];
  readonly filters: Partial<Record<ResourceType, string[]>>;
  readonly lists: Partial<Record<ResourceType, readonly ApiResource[]>>;
  readonly secrets: number;
}

/** True when the export reads the sub-resources of `kind` (ExportInput `subResources`). */
function readsSubResources(input: ExportInput, kind: ResourceType): boolean {
  const asked = input.subResources;
  return asked === true || (Array.isArray(asked) && asked.includes(kind));
}

/**
 * What an export leaves out by its options and by design, one sentence each (what, then why):
 * kinds not asked for, objects outside the filters, sub-resources not read, built-in objects,
 * attributes equal to the server defaults and secret values.
 */
function leftOut({ input, available, exported, filters, lists, secrets }: LeftOutInput): string[] {
  const out: string[] = [];
  const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
  const notAsked = available.filter((kind) => !exported.includes(kind));
  if (notAsked.length > 0) out.push(`objects of ${notAsked.join(', ')}: not read (--kind asked for ${exported.join(', ')} only)`);
  for (const kind of exported) {
    const given = filters[kind];
    if (given !== undefined) out.push(`${kind} objects that do not match ${given.join(' and ')}: not read (--filter)`);
  }
  for (const kind of exported.filter((k) => !readsSubResources(input, k))) {
    const labels = subResourcesOf(kind).map(([, def]) => `${def.label}s`);
    const option = kindOf(kind).exportOption;
    if (labels.length > 0) out.push(`each ${kind}'s use of ${[labels.slice(0, -1).join(', '), labels.at(-1)].filter(Boolean).join(' and ')}: not read${option ? ` (--no-${option.name})` : ''}`);
  }
  for (const kind of exported) {
    const builtIns = (lists[kind] ?? []).filter((r) => isBuiltInId(r.id)).length;
    if (builtIns > 0) out.push(`${plural(builtIns, `built-in ${kind}`)}: part of the gateway, which no manifest declares (links to ${builtIns === 1 ? 'it' : 'them'} are written by name)`);
  }
  if (!input.keepDefaults) out.push('attributes equal to the server defaults: not written, the gateway sets them (--keep-defaults writes them)');
  if (secrets > 0) out.push(`${plural(secrets, 'secret value')}: not written, the manifests read ${secrets === 1 ? 'it' : 'them'} from environment variables (secrets.env.example)`);
  return out;
}

/** A relative path with `/` separators (an absolute one stays as it is). */
function portable(path: string): string {
  return isAbsolute(path) ? path : path.split('\\').join('/');
}

export type { ExportedDocument, SecretVariable };
