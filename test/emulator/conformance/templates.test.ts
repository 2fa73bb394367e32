/**
 * Mapping templates and source mappings: docs/gateway-api.md "Mapping templates".
 */
import { describe, expect, it } from 'vitest';
import { errorCode, many, one, uniqueName, VALID, useAdminSession } from './client.js';
import type { Client } from './client.js';

describe('mapping templates (docs/gateway-api.md "Mapping templates")', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  const templateId = async (): Promise<string> => {
    const reply = await c.call('GET', '/configuration/templates/mappings');
    expect(reply.status).toBe(200);
    const template = many(reply).find((t) => t.attributes.name === 'New_Mapping');
    if (template === undefined) throw new Error(`no New_Mapping template in ${reply.text}`);
    return template.id;
  };

  it('GET /configuration/templates/mappings lists templates, New_Mapping always among them, with negative ids', async () => {
    const id = await templateId();
    expect(id).toMatch(/^-\d+$/);
  });

  it('POST /configuration/mappings/create-from-template answers 201 with the new mapping id', async () => {
    const id = await templateId();
    const reply = await c.call('POST', '/configuration/mappings/create-from-template', {
      json: { data: { type: 'create-mapping-from-template', attributes: { id } } },
    });
    expect(reply.status).toBe(201);
    const created = one(reply);
    expect(created.id).toMatch(/^\d+$/);
    const read = await c.read('mapping', created.id);
    expect(read.type).toBe('mapping');
    expect(typeof read.attributes.name).toBe('string');
    expect(read.attributes).toHaveProperty('entryPath');
  });

  it('create-from-template with a numeric template id is accepted too', async () => {
    const id = await templateId();
    const reply = await c.call('POST', '/configuration/mappings/create-from-template', {
      json: { data: { type: 'create-mapping-from-template', attributes: { id: Number(id) } } },
    });
    expect(reply.status).toBe(201);
  });

  it.each([
    ['data.id and the create type', (id: string) => ({ type: 'create-mapping-from-template', id })],
    ['data.id alone', (id: string) => ({ id })],
    ['data.id typed as the template', (id: string) => ({ type: 'mapping-template', id })],
  ])('create-from-template with the template id in %s is accepted too (201)', async (_label, body) => {
    const id = await templateId();
    const reply = await c.call('POST', '/configuration/mappings/create-from-template', { json: { data: body(id) } });
    expect(reply.status).toBe(201);
    expect((await c.read('mapping', one(reply).id)).type).toBe('mapping');
  });

  it('create-from-template with an unknown template answers 404 ENTITY_NOT_FOUND', async () => {
    const reply = await c.call('POST', '/configuration/mappings/create-from-template', {
      json: { data: { type: 'create-mapping-from-template', attributes: { id: '-424242' } } },
    });
    expect(reply.status).toBe(404);
    expect(errorCode(reply)).toBe('ENTITY_NOT_FOUND');
  });
});

describe('source mappings (docs/gateway-api.md "Mapping templates")', () => {
  let c: Client;
  useAdminSession((_harness, client) => {
    c = client;
  });

  it('PATCH /mappings/{id}/relationships/template sets the source mapping (204), named in mappingTemplateName', async () => {
    const sourceName = uniqueName('source');
    const source = await c.create('mapping', { ...VALID.mapping(sourceName), threatHandling: 'NOTIFY' });
    const target = await c.create('mapping', VALID.mapping(uniqueName('derived')));
    const reply = await c.call('PATCH', `/configuration/mappings/${target}/relationships/template`, {
      json: { data: { type: 'mapping', id: source } },
    });
    expect(reply.status).toBe(204);
    expect((await c.read('mapping', target)).attributes.mappingTemplateName).toBe(sourceName);
  });

  it('POST /mappings/{id}/pull-from-source-mapping applies the source settings, keeping name and entry path', async () => {
    const source = await c.create('mapping', { ...VALID.mapping(uniqueName('source')), threatHandling: 'NOTIFY', backendPath: '/from-source/' });
    const targetName = uniqueName('derived');
    const target = await c.create('mapping', VALID.mapping(targetName, '/derived/'));
    expect((await c.read('mapping', target)).attributes.threatHandling).toBe('BLOCK');
    await c.call('PATCH', `/configuration/mappings/${target}/relationships/template`, { json: { data: { type: 'mapping', id: source } } });
    const reply = await c.call('POST', `/configuration/mappings/${target}/pull-from-source-mapping`);
    // The vendor's library expects 200; the body is the mapping as it now is.
    expect(reply.status).toBe(200);
    expect(one(reply)).toMatchObject({ type: 'mapping', id: target, attributes: { threatHandling: 'NOTIFY', name: targetName } });
    const read = await c.read('mapping', target);
    expect(read.attributes.threatHandling).toBe('NOTIFY');
    expect(read.attributes.backendPath).toBe('/from-source/');
    expect(read.attributes.name).toBe(targetName);
    expect((read.attributes.entryPath as { value?: unknown }).value).toBe('/derived/');
  });

  it('a mapping created from a template has it as its source: pull-from-source-mapping answers 200 with the template\'s settings', async () => {
    const templates = many(await c.call('GET', '/configuration/templates/mappings'));
    expect(templates.length).toBeGreaterThan(0);
    for (const template of templates) {
      const created = one(await c.call('POST', '/configuration/mappings/create-from-template', { json: { data: { type: 'create-mapping-from-template', attributes: { id: template.id } } } }));
      expect(created.attributes.mappingTemplateName).toBe(template.attributes.name);
      const reply = await c.call('POST', `/configuration/mappings/${created.id}/pull-from-source-mapping`);
      expect([reply.status, one(reply).attributes.backendPath]).toEqual([200, template.attributes.backendPath]);
    }
  });

  it('POST /mappings/{id}/pull-from-source-mapping of an unknown mapping answers 404', async () => {
    const reply = await c.call('POST', '/configuration/mappings/424242/pull-from-source-mapping');
    expect([reply.status, errorCode(reply)]).toEqual([404, 'ENTITY_NOT_FOUND']);
  });

  it('GET /mappings/{id}/export answers 200 with a zip', async () => {
    const id = await c.create('mapping', VALID.mapping(uniqueName('exported')));
    const reply = await c.call('GET', `/configuration/mappings/${id}/export`);
    expect(reply.status).toBe(200);
    expect(reply.raw.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('POST /mappings/import of an exported mapping imports it as a copy', async () => {
    const name = uniqueName('exported');
    const id = await c.create('mapping', VALID.mapping(name));
    const exported = await c.call('GET', `/configuration/mappings/${id}/export`);
    expect(exported.status).toBe(200);
    const reply = await c.call('POST', '/configuration/mappings/import', { raw: exported.raw, headers: { 'content-type': 'application/zip' } });
    expect(reply.status).toBeGreaterThanOrEqual(200);
    expect(reply.status).toBeLessThan(300);
    expect((await c.list('mapping', `filter=name=@${name}`)).length).toBe(2);
  });
});
