/**
 * What the manifest loader hands to the reconciler: documents fully resolved (variables
 * substituted, secrets read, templates merged, overlays applied) with their positions.
 */
import type { ResourceType } from '../kinds/index.js';
import type { ObjectContent } from '../core/object-content.js';

/** A position in a manifest file (1-based line and column). */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A JSON object of attribute values. */
export type AttributeObject = { [key: string]: unknown };

/** One resolved manifest document of a resource kind (`mapping-template` documents are merged away). */
export interface ManifestDocument {
  readonly kind: ResourceType;
  /** Identity: the object's `name` attribute (for `ssl-certificate`, a local handle). */
  readonly name: string;
  /**
   * The declared attributes only, secrets resolved to their values (never print them:
   * mask by the schema's `x-gwops-secret`). For kinds with a `name` attribute it is set
   * to `name`.
   */
  readonly attributes: AttributeObject;
  /** Declared links by the API's relationship name, each a list of target names (to-one: 0 or 1). */
  readonly relationships: Readonly<Record<string, readonly string[]>>;
  /** Where the document starts. */
  readonly source: SourceLocation;
  /**
   * Where each relationship target that no manifest defines is written, by relationship
   * and name (with `allowExternalLinks`, the plan looks for those on the gateway and
   * locates a missing one here). Absent when every target is declared.
   */
  readonly linkSources?: Readonly<Record<string, Readonly<Record<string, SourceLocation>>>>;
  /**
   * Where each attribute that names an object no manifest defines (schema
   * `x-gwops-reference`) is written, by its dotted path inside `attributes`, array indexes
   * included (the plan looks for those on the gateway and locates a missing one here).
   * Absent when every named object is declared.
   */
  readonly referenceSources?: Readonly<Record<string, SourceLocation>>;
  /**
   * The `version` of each secret source that gives one, by dotted attribute path
   * (docs/manifest-reference.md "Secrets that rotate"); absent when none does.
   */
  readonly secretVersions?: Readonly<Record<string, number>>;
  /**
   * The declared content (`content: { fromFile }`, kinds with a content sub-resource;
   * docs/manifest-reference.md "Document content"): its bytes, digest and absolute file.
   * Absent when the document declares none: the content is then not managed.
   */
  readonly content?: ObjectContent;
}
