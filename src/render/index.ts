/**
 * Renderers of a Plan: each a pure function of the plan returning a string; the JSON
 * documents also as generators of bounded chunks (`…Chunks`, src/render/json-chunks.ts).
 */
export { renderText, renderTextChunks, renderTextLines } from './text.js';
export type { TextOptions } from './text.js';
export { renderMarkdown, MARKDOWN_MARKER, MARKDOWN_MAX_BYTES } from './markdown.js';
export type { MarkdownOptions } from './markdown.js';
export { planJson, planMembers, renderApplyJson, renderApplyJsonChunks, renderJson, renderJsonChunks } from './json.js';
export type { JsonOptions } from './json.js';
export { NO_CHANGES, summaryLine } from './values.js';
export { renderMermaid, mermaidText, MERMAID_MAX_NODES } from './mermaid.js';
export type { MermaidOptions } from './mermaid.js';
export { renderDot } from './dot.js';
export { driftTopology, planTopology, stateTopology } from './topology.js';
export type { Topology, TopologyNode, TopologyEdge } from './topology.js';
export { renderPlanFile, renderPlanFileChunks } from './plan-file.js';
export { CHUNK_SIZE } from './json-chunks.js';
