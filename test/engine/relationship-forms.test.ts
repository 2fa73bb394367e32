/**
 * Reading a to-one relationship: clients and gateways differ in how they send one, so a
 * missing member, `null`, an identifier object and a one-element array must all read
 * alike (docs/gateway-api.md "Relationships").
 */
import { describe, expect, it } from 'vitest';
import { toResource } from '../../src/api/documents.js';
import { liveState } from '../../src/engine/live.js';

const certificate = { type: 'ssl-certificate', id: '7', attributes: { certificate: 'PEM' } };

function vhost(relationships: Record<string, unknown> | undefined): unknown {
  return { type: 'virtual-host', id: '3', attributes: { name: 'shop' }, ...(relationships === undefined ? {} : { relationships }) };
}

function linksOf(raw: unknown): string[] {
  const state = liveState({ 'virtual-host': [toResource(raw)], 'ssl-certificate': [toResource(certificate)] }, new Map());
  return state.links.map((l) => `${l.from.kind}/${l.from.name} ${l.relationship} ${l.to.kind}`).sort();
}

describe('a to-one relationship as served', () => {
  it.each([
    ['an identifier object', { data: { type: 'ssl-certificate', id: '7' } }],
    ['a one-element array', { data: [{ type: 'ssl-certificate', id: '7' }] }],
    ['an identifier whose id is a number', { data: { type: 'ssl-certificate', id: 7 } }],
  ])('reads %s as the link', (_label, member) => {
    expect(linksOf(vhost({ 'ssl-certificate': member }))).toEqual(['virtual-host/shop ssl-certificate ssl-certificate']);
  });

  it.each([
    ['a missing member', {}],
    ['no relationships at all', undefined],
    ['data null', { 'ssl-certificate': { data: null } }],
    ['an empty array', { 'ssl-certificate': { data: [] } }],
    ['a member without data', { 'ssl-certificate': {} }],
  ])('reads %s as no link', (_label, relationships) => {
    expect(linksOf(vhost(relationships))).toEqual([]);
  });
});
