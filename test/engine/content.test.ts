/**
 * The planner and document content (docs/manifest-reference.md "Document content"): a new
 * document is created, then its content uploaded, before a mapping that uses it; declared
 * content is compared by digest with the live one (only declared content is managed); the
 * step carries digests and the diff, the bytes travel once, in the upload call; a rollback
 * preview compares the content of the two configurations.
 */
import { describe, expect, it } from 'vitest';
import { desiredState, identityHandles } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import type { ApiResource } from '../../src/engine/live.js';
import type { State } from '../../src/engine/model.js';
import { buildPlan } from '../../src/engine/plan.js';
import { rollbackPlan } from '../../src/operations/rollback.js';
import type { Plan } from '../../src/engine/plan-types.js';
import { CONTENT_DIFF_LINES } from '../../src/engine/content.js';
import type { ResourceType } from '../../src/kinds/index.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import { objectContent } from '../../src/core/object-content.js';
import { doc, options, resource } from './helpers.js';

const SPEC = 'openapi: 3.0.3\ninfo:\n  title: Orders\n  version: 1.0.0\n';

function withContent(document: ManifestDocument, text: string | Uint8Array): ManifestDocument {
  return { ...document, content: objectContent(typeof text === 'string' ? Buffer.from(text) : text, '/project/spec.yaml') };
}

/** The live state of `lists`, with `contents` (by document name) as the live content. */
function live(desired: State, lists: Partial<Record<ResourceType, ApiResource[]>>, contents: Record<string, string> = {}): State {
  const state = liveState(lists, identityHandles(desired));
  const documents = new Map(state.objects.get('openapi-document'));
  for (const [name, text] of Object.entries(contents)) {
    const object = documents.get(name);
    if (object) documents.set(name, { ...object, content: objectContent(Buffer.from(text)) });
  }
  const objects = new Map(state.objects);
  objects.set('openapi-document', documents);
  return { ...state, objects };
}

function plan(docs: ManifestDocument[], lists: Partial<Record<ResourceType, ApiResource[]>>, contents: Record<string, string> = {}): Plan {
  const desired = desiredState(docs);
  return buildPlan(desired, live(desired, lists, contents), options());
}

describe('document content in the plan', () => {
  it('a new document is created, its content uploaded right after, before the mapping that names it', () => {
    const p = plan(
      [
        withContent(doc('openapi-document', 'orders'), SPEC),
        doc('mapping', 'api', { entryPath: { value: '/api/' }, apiSecurity: { openApi: { policies: [{ openApiDocumentId: 'orders' }] } } }, { 'openapi-document': ['orders'] }),
      ],
      {},
    );
    const calls = p.calls.map((c) => `${c.method} ${c.path}`);
    const upload = calls.indexOf('PUT /configuration/api-security/openapi-documents/{openapi-document:orders}/content');
    expect(calls.indexOf('POST /configuration/api-security/openapi-documents')).toBe(upload - 1);
    expect(calls.findIndex((c) => c.includes('mapping'))).toBeGreaterThan(upload);
    const create = p.steps.find((s) => s.kind === 'openapi-document');
    expect(create?.action === 'create' ? create.content?.after : undefined).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The bytes travel once: in the upload call, not in the step.
    const base64 = Buffer.from(SPEC).toString('base64');
    expect(JSON.stringify(p.steps)).not.toContain(base64);
    expect(JSON.stringify(p.calls).split(base64)).toHaveLength(2);
  });

  it('the same bytes live: no step, no call; other bytes: one update whose only call is the upload, with the diff of the changed line', () => {
    const docs = [withContent(doc('openapi-document', 'orders'), SPEC)];
    const lists = { 'openapi-document': [resource('openapi-document', '7', { name: 'orders' })] };
    expect(plan(docs, lists, { orders: SPEC }).steps).toEqual([]);
    const p = plan(docs, lists, { orders: SPEC.replace('Orders', 'Old orders') });
    expect(p.summary).toMatchObject({ create: 0, update: 1, delete: 0 });
    expect(p.calls).toMatchObject([{ endpoint: 'content', method: 'PUT', path: '/configuration/api-security/openapi-documents/7/content', steps: [1], of: 1 }]);
    const step = p.steps[0];
    expect(step?.action === 'update' ? step.content?.diff : undefined).toContain('-  title: Old orders\n+  title: Orders');
  });

  it('content no manifest declares is not managed, whatever the gateway holds', () => {
    const lists = { 'openapi-document': [resource('openapi-document', '7', { name: 'orders' })] };
    expect(plan([doc('openapi-document', 'orders')], lists, { orders: 'anything' }).steps).toEqual([]);
  });

  it('binary content and very long diffs show digests and a bounded diff', () => {
    const lists = { 'openapi-document': [resource('openapi-document', '7', { name: 'orders' })] };
    const binary = plan([withContent(doc('openapi-document', 'orders'), new Uint8Array([0, 255, 1]))], lists, { orders: SPEC }).steps[0];
    expect(binary?.action === 'update' ? binary.content : undefined).toMatchObject({ binary: true });
    expect(binary?.action === 'update' ? binary.content?.diff : 'x').toBeUndefined();
    const long = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const cut = plan([withContent(doc('openapi-document', 'orders'), long)], lists, { orders: '' }).steps[0];
    const content = cut?.action === 'update' ? cut.content : undefined;
    expect(content?.diff?.split('\n')).toHaveLength(CONTENT_DIFF_LINES);
    expect(content?.omittedLines).toBeGreaterThan(0);
  });

  it('a rollback preview compares content between the configurations: the older bytes as an update, a document only the target holds with its content, none while it is empty', () => {
    const none = desiredState([]);
    const doc7 = resource('openapi-document', '7', { name: 'orders' });
    const active = live(none, { 'openapi-document': [doc7] }, { orders: SPEC.replace('Orders', 'New orders') });
    const target = live(none, { 'openapi-document': [doc7, resource('openapi-document', '8', { name: 'shipping' }), resource('openapi-document', '9', { name: 'empty' })] }, { orders: SPEC, shipping: SPEC, empty: '' });
    const p = rollbackPlan(target, active, '41');
    const byName = new Map(p.steps.map((step) => [step.name, step]));
    const orders = byName.get('orders');
    expect(orders?.action === 'update' ? orders.content?.diff : undefined).toContain('-  title: New orders\n+  title: Orders');
    const shipping = byName.get('shipping');
    expect(shipping?.action === 'create' ? shipping.content?.bytes : undefined).toBe(Buffer.byteLength(SPEC));
    const empty = byName.get('empty');
    expect(empty?.action).toBe('create');
    expect(empty?.action === 'create' ? empty.content : 'not a create').toBeUndefined();
    expect(rollbackPlan(active, active, '41').steps).toEqual([]);
  });
});
