/**
 * Configuration endpoints (docs/gateway-api.md "Configurations and activation"): list,
 * load-active, load by id, load-empty-config, save, activate, delete; plus validator
 * messages, which decide whether activation may happen.
 */
import type { ConfigurationEntry, ConfigurationStore } from './configurations.js';
import type { Json, ModelContext, ConfigContent, ValidatorMessage } from './model.js';
import { cloneContent } from './model.js';
import { initialContent } from './built-ins.js';
import { matchesFilter, validatorMessageId, validatorMessages } from './pure.js';
import type { Reply } from './responses.js';
import { EmulatorApiError, dataListReply, dataReply, emptyReply, errors } from './responses.js';
import { filterOf } from './routes-resources.js';
import type { Call, Route } from './routing.js';
import { isJsonObject, loadWorkingCopy, param, workingCopy } from './routing.js';

/** A configuration entry as a resource object of type `configuration`. */
export function configurationObject(store: ConfigurationStore, entry: ConfigurationEntry): unknown {
  return {
    type: 'configuration',
    id: entry.id,
    attributes: {
      configType: store.configType(entry),
      ...(entry.comment === undefined ? {} : { comment: entry.comment }),
      createdAt: entry.createdAt,
      createdBy: entry.createdBy,
    },
  };
}

function list(call: Call): Reply {
  const store = call.core.configurations;
  return dataReply(store.list().map((e) => configurationObject(store, e)));
}

function readOne(call: Call): Reply {
  const store = call.core.configurations;
  const id = param(call, 'id');
  const entry = store.get(id);
  if (!entry) throw errors.notFound(`configuration ${id}`);
  return dataReply(configurationObject(store, entry));
}

function loadActive(call: Call): Reply {
  loadWorkingCopy(call, cloneContent(call.core.configurations.active().content));
  return emptyReply();
}

function loadById(call: Call): Reply {
  const store = call.core.configurations;
  const id = param(call, 'id');
  const entry = store.get(id);
  if (!entry) throw errors.notFound(`configuration ${id}`);
  loadWorkingCopy(call, cloneContent(entry.content));
  return emptyReply();
}

function loadEmpty(call: Call): Reply {
  loadWorkingCopy(call, initialContent(call.core.variant, call.core.builtIns));
  return emptyReply();
}

/** The optional `comment` of a save or activate body. @throws EmulatorApiError 400 INVALID_VALUE when not a string. */
function commentOf(body: Json | undefined): string | undefined {
  if (!isJsonObject(body)) return undefined;
  const comment = body.comment;
  if (comment === undefined || comment === null) return undefined;
  if (typeof comment !== 'string') throw errors.invalidValue("'comment' must be a string");
  return comment;
}

function save(call: Call): Reply {
  const working = workingCopy(call);
  const comment = commentOf(call.json());
  const store = call.core.configurations;
  // The saved configuration is a snapshot: the session goes on editing its own clone.
  const entry = store.save(cloneContent(working), comment, call.session.user.user);
  return dataReply(configurationObject(store, entry));
}

/** True when `value` is true or the string "true" (string booleans, docs/gateway-api.md "What real clients send"). */
function truthy(value: Json | undefined): boolean {
  return value === true || value === 'true';
}

/** The working copy's validator messages, recomputed on each call (docs/gateway-api.md "Validator messages"). */
export function messagesOf(content: ConfigContent, model: ModelContext): ValidatorMessage[] {
  return validatorMessages(content, model);
}

function activate(call: Call): Reply {
  const working = workingCopy(call);
  const body = call.json();
  const comment = commentOf(body);
  const options = isJsonObject(body) && isJsonObject(body.options) ? body.options : {};
  const store = call.core.configurations;
  if (call.session.loadedAtActivation !== store.activationCount() && !truthy(options.ignoreOutdatedConfiguration)) {
    throw new EmulatorApiError(
      409,
      'OUTDATED_CONFIGURATION',
      'another configuration was activated after this session loaded its copy; reload, or set options.ignoreOutdatedConfiguration',
    );
  }
  const failing = messagesOf(working, call.core.model).filter((m) => m.severity === 'ERROR');
  if (failing.length > 0) {
    throw new EmulatorApiError(400, 'VALIDATION_FAILED', `the configuration has ${failing.length} validator message(s) of severity ERROR`);
  }
  const entry = store.activate(cloneContent(working), comment, call.session.user.user);
  call.session.loadedAtActivation = store.activationCount();
  return dataReply(configurationObject(store, entry));
}

function remove(call: Call): Reply {
  const id = param(call, 'id');
  switch (call.core.configurations.delete(id)) {
    case 'deleted':
      return emptyReply();
    case 'not-found':
      throw errors.notFound(`configuration ${id}`);
    case 'active':
      throw new EmulatorApiError(409, 'ACTIVE_CONFIGURATION_DELETION', 'the currently active configuration cannot be deleted');
  }
}

/** A validator message as a resource (both shapes of docs/gateway-api.md "Validator messages"). */
function messageObject(m: ValidatorMessage): { type: string; id: string; meta: unknown; attributes: unknown } {
  return {
    type: 'validator-message',
    id: validatorMessageId(m),
    meta: { severity: m.severity, type: m.model.type },
    attributes: { code: m.code, title: m.title, detail: m.detail, meta: { severity: m.severity, model: { type: m.model.type, id: m.model.id } } },
  };
}

function validatorMessagesRoute(call: Call): Reply {
  const working = workingCopy(call);
  const filter = filterOf(call);
  const out = messagesOf(working, call.core.model)
    .map(messageObject)
    // A `type` filter means the type of the object concerned (docs/gateway-api.md "Validator messages").
    .filter((m) => !filter || matchesFilter(filter, { ...m, type: (m.meta as { type: string }).type }));
  return dataListReply(out, (m, chunks) => chunks.json(m));
}

const BASE = ['configuration', 'configurations'] as const;

/** The configuration and validator-message routes. */
export const configurationRoutes: readonly Route[] = [
  { method: 'GET', pattern: BASE, modifying: false, needsLoad: false, handle: list },
  { method: 'POST', pattern: [...BASE, 'load-active'], modifying: false, needsLoad: false, handle: loadActive },
  { method: 'POST', pattern: [...BASE, 'load-empty-config'], modifying: false, needsLoad: false, handle: loadEmpty },
  { method: 'POST', pattern: [...BASE, 'save'], modifying: true, needsLoad: true, handle: save },
  { method: 'POST', pattern: [...BASE, 'activate'], modifying: true, needsLoad: true, handle: activate },
  { method: 'POST', pattern: [...BASE, ':id', 'load'], modifying: false, needsLoad: false, handle: loadById },
  { method: 'GET', pattern: [...BASE, ':id'], modifying: false, needsLoad: false, handle: readOne },
  { method: 'DELETE', pattern: [...BASE, ':id'], modifying: true, needsLoad: true, handle: remove },
  { method: 'GET', pattern: ['configuration', 'validator-messages'], modifying: false, needsLoad: true, handle: validatorMessagesRoute },
];
