/**
 * The gateway's own objects outside a configuration's resource collections
 * (docs/gateway-api.md "License and nodes"): the license (`GET`/`PATCH`/`DELETE
 * /configuration/license`) and the node answering the call (`GET`/`PATCH
 * /configuration/nodes/current`). Their state lives in the emulator's `system` state, not in
 * a configuration: a node renamed before an import is what the import then checks. The
 * cluster's nodes (`/configuration/nodes`) are a configuration's objects like any kind's.
 */
import { KINDS } from '../kinds/index.js';
import type { Json } from './model.js';
import type { Reply } from './responses.js';
import { dataReply, emptyReply, errors } from './responses.js';
import type { Call, Route } from './routing.js';
import { isJsonObject, requestData, show } from './routing.js';

/** The node the emulator runs as: one stand-alone node, id `1`. */
export interface NodeState {
  /** The node's `hostName`; a configuration archive's node must match it on import. */
  hostName: string;
}

/** The installed license, as `GET /configuration/license` shows it. */
export interface LicenseState {
  owner: string;
  environment: string;
  backendHosts: string;
  /** The license text as last uploaded with `PATCH`; '' when none was. */
  rawLicense: string;
}

/** The gateway-wide state of this module's routes. */
export interface SystemState {
  readonly node: NodeState;
  license: LicenseState | undefined;
}

/** The id of the emulator's one node. */
const NODE_ID = '1';

/** The kind of the node answering the call (its hooks' `servesCurrent`), if the registry has one. */
const NODE_KIND = KINDS.find((kind) => kind.emulator.servesCurrent === true);

/** The license an emulator starts with. */
export function emulatorLicense(): LicenseState {
  return { owner: 'gwops emulator', environment: 'Test', backendHosts: 'unlimited', rawLicense: '' };
}

function nodeObject(node: NodeState): unknown {
  return { type: NODE_KIND?.type, id: NODE_ID, attributes: { hostName: node.hostName } };
}

function readNode(call: Call): Reply {
  return dataReply(nodeObject(call.core.system.node));
}

/**
 * `PATCH /configuration/nodes/current`: takes the whole document a client read (type `node`,
 * its id or none) and changes `hostName`. @throws EmulatorApiError 400 INVALID_VALUE.
 */
function patchNode(call: Call): Reply {
  const data = requestData(call.json());
  const type = NODE_KIND?.type;
  if (!isJsonObject(data) || (data.type !== undefined && data.type !== type)) throw errors.invalidValue(`'data.type' must be '${String(type)}'`);
  if (data.id !== undefined && data.id !== null && data.id !== NODE_ID && data.id !== Number(NODE_ID)) {
    throw errors.invalidValue(`'data.id' (${show(data.id)}) is not the current node (${NODE_ID})`);
  }
  const attributes = data.attributes;
  if (!isJsonObject(attributes)) throw errors.invalidValue("'data.attributes' must be an object");
  const hostName: Json | undefined = attributes.hostName;
  if (hostName !== undefined) {
    if (typeof hostName !== 'string' || hostName.trim() === '') throw errors.invalidValue("'hostName' must be a non-empty string");
    call.core.system.node.hostName = hostName;
  }
  return dataReply(nodeObject(call.core.system.node));
}

function licenseObject(license: LicenseState): unknown {
  return { type: 'license-response', id: 'license', attributes: { ...license } };
}

function readLicense(call: Call): Reply {
  const license = call.core.system.license;
  if (!license) throw errors.notFound('license');
  return dataReply(licenseObject(license));
}

/** `PATCH /configuration/license` with `{data:{type:'license', attributes:{license}}}`. @throws EmulatorApiError 400 INVALID_VALUE. */
function patchLicense(call: Call): Reply {
  const data = requestData(call.json());
  if (!isJsonObject(data) || (data.type !== undefined && data.type !== 'license')) throw errors.invalidValue("'data.type' must be 'license'");
  const text = isJsonObject(data.attributes) ? data.attributes.license : undefined;
  if (typeof text !== 'string' || text.trim() === '') throw errors.invalidValue("'data.attributes.license' must hold the license text");
  call.core.system.license = { ...(call.core.system.license ?? emulatorLicense()), rawLicense: text };
  return dataReply(licenseObject(call.core.system.license));
}

function deleteLicense(call: Call): Reply {
  if (!call.core.system.license) throw errors.notFound('license');
  call.core.system.license = undefined;
  return emptyReply();
}

const LICENSE = ['configuration', 'license'] as const;

/** License and current-node routes (placed before the generic resource routes, so `current` is no node id). */
export const systemRoutes: readonly Route[] = [
  ...(NODE_KIND === undefined
    ? []
    : [
        { method: 'GET', pattern: ['configuration', NODE_KIND.collection, 'current'], modifying: false, needsLoad: false, handle: readNode } as const,
        { method: 'PATCH', pattern: ['configuration', NODE_KIND.collection, 'current'], modifying: true, needsLoad: false, handle: patchNode } as const,
      ]),
  { method: 'GET', pattern: LICENSE, modifying: false, needsLoad: false, handle: readLicense },
  { method: 'PATCH', pattern: LICENSE, modifying: true, needsLoad: false, handle: patchLicense },
  { method: 'DELETE', pattern: LICENSE, modifying: true, needsLoad: false, handle: deleteLicense },
];
