/** `gwops export`: the active configuration of a gateway written as gwops/v1 manifests. */
export { buildDocuments } from './build.js';
export type { BuildInput, BuildResult, ExportedDocument, SecretVariable } from './build.js';
export { exportAttributes } from './attributes.js';
export { defaultTree, stripDefaults } from './default-tree.js';
export { escapeFileName, unescapeFileName, secretEnvName, generatedName } from './names.js';
export { manifestFiles, renderDocument, renderProjectFile, renderSecretsExample, SECRETS_EXAMPLE_FILE } from './write.js';
export type { ExportLayout } from './write.js';
