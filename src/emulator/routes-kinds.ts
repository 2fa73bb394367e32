/**
 * The kinds' own endpoints (EmulatorHooks `routes`: the built-in deny rules and a mapping's
 * use of them), turned into routes: each handler gets a `KindCall` over the session's
 * working copy and answers with its `data` member. They need a loaded configuration.
 */
import { KINDS } from '../kinds/index.js';
import type { KindCall, KindRoute } from '../kinds/emulator-hooks.js';
import { dataReply, errors } from './responses.js';
import type { Call, Route } from './routing.js';
import { param, requestData, workingCopy } from './routing.js';

/** `call` as a kind's handler sees it. */
function kindCall(call: Call): KindCall {
  return {
    param: (name) => param(call, name),
    data: () => requestData(call.json()),
    objects: (type) => workingCopy(call).objects[type],
    errors,
  };
}

function route(kindRoute: KindRoute): Route {
  return { method: kindRoute.method, pattern: kindRoute.pattern, modifying: kindRoute.modifying, needsLoad: true, handle: (call) => dataReply(kindRoute.handle(kindCall(call))) };
}

/** The routes of every kind's own endpoints, in registry order (server.ts orders them by specificity). */
export const kindRoutes: readonly Route[] = KINDS.flatMap((kind) => (kind.emulator.routes?.(kind, KINDS) ?? []).map(route));
