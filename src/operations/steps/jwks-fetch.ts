/**
 * Fetching a JWK Set over HTTPS with undici (docs/manifest-reference.md "Token keys from a
 * JWKS"): TLS verified (the system's roots, or the CA of the source's `caFile`), a timeout
 * on connecting and on the whole answer, a size limit, and no redirects (a 3xx answer is
 * an error: the key must come from the URL the project names).
 */
import { Agent, request } from 'undici';
import { withoutCredentials } from '../../core/secrets.js';
import { isLoopbackHost } from '../../gateway/base-url.js';
import { parseJwkSet } from '../../jwks/keys.js';
import type { JwkSet } from '../../jwks/keys.js';

/** Default time a JWKS fetch may take, connecting included. Milliseconds. */
export const DEFAULT_JWKS_TIMEOUT_MS = 10_000;
/** Largest JWK Set body read: 256 KiB (a set holds a few keys of about 1 KiB each). */
export const MAX_JWKS_BYTES = 256 * 1024;

/** How one JWK Set is fetched. */
export interface JwksFetchOptions {
  /** PEM of the CA(s) to trust instead of the system's roots. */
  readonly ca?: string | undefined;
  /** Milliseconds for the whole fetch; default {@link DEFAULT_JWKS_TIMEOUT_MS}. */
  readonly timeoutMs?: number | undefined;
  /** Bytes; default {@link MAX_JWKS_BYTES}. */
  readonly maxBytes?: number | undefined;
}

/** Why a fetch failed, in words for a message that already names the URL. */
export class JwksFetchProblem extends Error {}

function describeError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const causeCode = typeof cause?.code === 'string' ? cause.code : undefined;
  const text = typeof code === 'string' && code.startsWith('UND_ERR') && causeCode ? causeCode : typeof code === 'string' ? code : causeCode;
  if (text === 'ECONNREFUSED') return 'connection refused';
  if (text === 'ENOTFOUND') return 'host not found';
  if (text !== undefined && /CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS/.test(text)) {
    return `cannot verify the TLS certificate (${text}); name the issuing CA with caFile in the jwks source`;
  }
  return text ?? (error instanceof Error ? error.message : String(error));
}

/**
 * GETs `url` and checks the body is a JWK Set.
 * @throws JwksFetchProblem for a plain-HTTP URL, a connection or TLS failure, a timeout, a
 *   non-2xx answer (3xx included: redirects are refused), a body over the size limit, a
 *   body that is not JSON, or JSON that is not a JWK Set
 */
export async function fetchJwks(url: string, options: JwksFetchOptions = {}): Promise<JwkSet> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new JwksFetchProblem('not a URL');
  }
  // Its keys decide who gets in: plain HTTP only where nothing travels over a network.
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
    throw new JwksFetchProblem('a JWKS is fetched over https:// only (plain http:// only from a loopback host: localhost, 127.0.0.0/8, [::1]), since its keys decide who gets in');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_JWKS_BYTES;
  const agent = new Agent({
    connect: { ...(options.ca !== undefined ? { ca: options.ca } : {}), timeout: timeoutMs, rejectUnauthorized: true },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(parsed, { method: 'GET', dispatcher: agent, signal, headers: { accept: 'application/jwk-set+json, application/json' } });
    } catch (error) {
      if (signal.aborted) throw new JwksFetchProblem(`no answer within ${timeoutMs} ms`);
      throw new JwksFetchProblem(describeError(error));
    }
    const { statusCode, headers, body } = response;
    if (statusCode >= 300 && statusCode < 400) {
      await body.dump();
      const location = typeof headers.location === 'string' ? ` to ${withoutCredentials(headers.location)}` : '';
      throw new JwksFetchProblem(`answered ${statusCode} (a redirect${location}); redirects are refused: give the final URL`);
    }
    if (statusCode < 200 || statusCode >= 300) {
      await body.dump();
      throw new JwksFetchProblem(`answered HTTP ${statusCode}`);
    }
    const length = Number(headers['content-length']);
    if (Number.isFinite(length) && length > maxBytes) {
      body.destroy();
      throw new JwksFetchProblem(`the body is ${length} bytes, over the limit of ${maxBytes}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > maxBytes) {
          body.destroy();
          throw new JwksFetchProblem(`the body is over the limit of ${maxBytes} bytes`);
        }
        chunks.push(buf);
      }
    } catch (error) {
      if (error instanceof JwksFetchProblem) throw error;
      if (signal.aborted) throw new JwksFetchProblem(`no answer within ${timeoutMs} ms`);
      throw new JwksFetchProblem(describeError(error));
    }
    let json: unknown;
    try {
      json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new JwksFetchProblem('the body is not a JWK Set (not JSON)');
    }
    try {
      return parseJwkSet(json);
    } catch (error) {
      throw new JwksFetchProblem(error instanceof Error ? error.message : String(error));
    }
  } finally {
    await agent.close().catch(() => undefined);
  }
}
