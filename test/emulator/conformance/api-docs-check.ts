/**
 * Every request of the conformance suite that the emulator accepts must be described by the
 * emulator's own `GET /v3/api-docs`: its method and path are an operation there, and its
 * JSON body validates against that operation's request schema. The conformance client
 * (client.ts) calls {@link checkAccepted} after every 2xx answer, so the whole suite checks
 * the description without a list of its own.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import type { Variant } from '../../../src/kinds/index.js';
import { apiDocs } from '../../../src/emulator/api-docs.js';
import { ROUTES } from '../../../src/emulator/index.js';
import { VARIANT_VERSIONS } from '../../../src/emulator/server.js';

interface DescribedOperation {
  readonly method: string;
  readonly path: RegExp;
  readonly template: string;
  readonly validate?: ValidateFunction;
}

/** The operations of each emulator's description, by base URL, registered when a harness starts. */
const described = new Map<string, DescribedOperation[]>();
/** The operations per variant, built once per test process. */
const byVariant = new Map<Variant, DescribedOperation[]>();

// Coercion as the emulator coerces: `"true"` for a boolean (docs/gateway-api.md "What real clients send").
const ajv = new Ajv2020.default({ strict: false, coerceTypes: true, allErrors: false });
const compiled = new Map<string, ValidateFunction>();

function templateRegExp(template: string): RegExp {
  const escaped = template.split('/').map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${escaped.join('/')}$`);
}

/**
 * Registers the emulator at `baseUrl` for {@link checkAccepted}. The description is the one
 * the emulator serves (`apiDocs`, which api-docs.test.ts checks over HTTP), built here in
 * process so that the check adds no request to the emulator's log and no delay to a session.
 */
export function registerDescribed(baseUrl: string, variant: Variant): void {
  let ops = byVariant.get(variant);
  if (!ops) {
    ops = [];
    const doc = apiDocs(ROUTES, variant, VARIANT_VERSIONS[variant]);
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const schema = op.requestBody?.content['application/json']?.schema;
        let validate: ValidateFunction | undefined;
        if (schema !== undefined) {
          const key = JSON.stringify(schema);
          validate = compiled.get(key) ?? ajv.compile(schema);
          compiled.set(key, validate);
        }
        ops.push({ method: method.toUpperCase(), path: templateRegExp(template), template, ...(validate ? { validate } : {}) });
      }
    }
    byVariant.set(variant, ops);
  }
  described.set(baseUrl, ops);
}

/** The JSON value of a request body as sent, or undefined when there is none or it is no JSON. */
function jsonBody(json: unknown, raw: unknown): unknown {
  if (json !== undefined) return structuredClone(json);
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Checks one accepted request against the description.
 * @throws Error naming the request when no operation describes it, or its JSON body does not
 * validate against the operation's schema.
 */
export function checkAccepted(baseUrl: string, method: string, path: string, body: { json?: unknown; raw?: unknown }): void {
  const plain = path.split('?')[0]?.replace(/\/{2,}/g, '/') ?? path;
  const ops = described.get(baseUrl);
  if (!ops) throw new Error(`no description registered for ${baseUrl}: start emulators with startHarness`);
  const op = ops.find((o) => o.method === method && o.path.test(plain));
  if (!op) throw new Error(`the emulator accepted ${method} ${plain}, which GET /v3/api-docs does not describe`);
  const value = jsonBody(body.json, body.raw);
  if (op.validate && value !== undefined && !op.validate(value)) {
    throw new Error(`the body of ${method} ${plain} does not fit ${op.template} in GET /v3/api-docs: ${ajv.errorsText(op.validate.errors)}`);
  }
}
