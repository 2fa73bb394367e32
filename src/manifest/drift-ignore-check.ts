/**
 * The check of `drift.ignore` entries against the manifests (README.md "Drift"): an entry
 * that names an object no manifest declares, or an attribute path no difference of its
 * kind can have, probably has a typo and ignores nothing; each is a warning with a
 * did-you-mean. Pure.
 */
import { kindOf, relationshipNamed } from '../kinds/index.js';
import type { ResourceType } from '../kinds/index.js';
import { walkAttributes } from '../schema/index.js';
import type { DriftSettings } from './drift-ignore.js';
import { didYouMean } from './schema-check.js';

/** A problem of an entry that does not stop the run: it probably matches nothing (a typo). */
export interface IgnoreWarning {
  readonly index: number;
  readonly field: 'object' | 'attribute';
  readonly message: string;
}

const ignorablePaths = new Map<ResourceType, readonly string[]>();

/**
 * The attribute paths of `kind` a difference can have (README.md "Drift"): every attribute
 * of its schema that is not inside a list (a list is compared and reported whole), and
 * `content` for kinds with a content sub-resource. Sub-resource maps (a mapping's
 * `denyRuleGroups.<name>…`) are keyed by names, and not listed.
 */
function pathsOf(kind: ResourceType): readonly string[] {
  let paths = ignorablePaths.get(kind);
  if (!paths) {
    paths = walkAttributes(kind)
      .map((p) => p.path)
      .filter((p) => !p.includes('[]'));
    if (kindOf(kind).content === true) paths = [...paths, 'content'];
    ignorablePaths.set(kind, paths);
  }
  return paths;
}

/** The warning about an entry's attribute path, or undefined when a difference can have that path. */
function attributeProblem(kind: ResourceType, attribute: string): string | undefined {
  if (attribute === '*') return undefined;
  const definition = kindOf(kind);
  if (attribute.startsWith('relationships.')) {
    const name = attribute.slice('relationships.'.length);
    const relationship = relationshipNamed(definition, name);
    const names = Object.entries(definition.relationships).filter(([, r]) => r.canonical).map(([n]) => `relationships.${n}`);
    if (!relationship) return `names no relationship of ${kind}, so the entry ignores nothing${suggested(attribute, names)}`;
    const key = Object.entries(definition.relationships).find(([, r]) => r === relationship)?.[0];
    if (relationship.canonical && key !== undefined && key !== name) return `names the relationship by another of its names, so the entry ignores nothing: write relationships.${key}`;
    if (!relationship.canonical) {
      return `names the link from the ${kind} side, so the entry ignores nothing; a link difference is named from its canonical side: write object ${relationship.target}/<name>, attribute relationships.${relationship.inverse}`;
    }
    return undefined;
  }
  const [head] = attribute.split('.');
  if (head !== undefined && Object.hasOwn(definition.subResources ?? {}, head)) return undefined;
  const paths = pathsOf(kind);
  if (paths.includes(attribute)) return undefined;
  const inList = walkAttributes(kind).find((p) => p.path.replace(/\[\]/g, '') === attribute);
  if (inList) return `points into a list, so the entry ignores nothing; a list is compared and kept whole: write ${inList.path.slice(0, inList.path.indexOf('[]'))}`;
  return `is no attribute path of ${kind}, so the entry ignores nothing${suggested(attribute, paths)}`;
}

function suggested(word: string, candidates: readonly string[]): string {
  const best = didYouMean(word, candidates);
  return best === undefined ? '' : `: did you mean '${best}'?`;
}

/**
 * What probably makes an entry match nothing (a typo): an object name that no manifest
 * declares (an object added on the gateway has no declaration: only `attribute: *`
 * matches it, so such an entry is questioned only when a declared name is close), or an
 * attribute path that no difference of the kind can have, each with a did-you-mean. Pure.
 * @param declared the declared object names by kind
 */
export function ignoreEntryWarnings(settings: DriftSettings, declared: (kind: ResourceType) => readonly string[]): IgnoreWarning[] {
  const warnings: IgnoreWarning[] = [];
  settings.ignore.forEach((entry, index) => {
    if (entry.name !== '*') {
      const names = declared(entry.kind);
      if (!names.includes(entry.name)) {
        const best = didYouMean(entry.name, names);
        const hint = best === undefined ? '' : `: did you mean '${entry.kind}/${best}'?`;
        if (entry.attribute !== '*') {
          warnings.push({
            index,
            field: 'object',
            message: `drift.ignore object '${entry.object}' names no ${entry.kind} that the manifests declare, so it ignores nothing (an object added on the gateway is matched only by attribute *)${hint}`,
          });
        } else if (best !== undefined) {
          warnings.push({ index, field: 'object', message: `drift.ignore object '${entry.object}' names no ${entry.kind} that the manifests declare (fine for an object added on the gateway)${hint}` });
        }
      }
    }
    const problem = attributeProblem(entry.kind, entry.attribute);
    if (problem !== undefined) warnings.push({ index, field: 'attribute', message: `drift.ignore attribute '${entry.attribute}' of ${entry.object} ${problem}` });
  });
  return warnings;
}
