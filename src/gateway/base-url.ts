/**
 * The gateway's base URL: which schemes and hosts gwops talks to (README.md, connection
 * options). Pure: no request is made.
 */
import { isIP } from 'node:net';
import { ConfigError } from '../core/errors.js';

/**
 * True when `host` (a URL hostname, IPv6 possibly in brackets) is a loopback address:
 * `localhost` (and `*.localhost`), 127.0.0.0/8, or `::1`.
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const family = isIP(h);
  if (family === 4) return h.startsWith('127.');
  if (family === 6) {
    if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    return mapped?.[1] !== undefined && mapped[1].startsWith('127.');
  }
  return false;
}

/**
 * Parses and checks the base URL: `https://` always; plain `http://` only for a loopback
 * host (README.md, connection options). No request is made.
 * @throws ConfigError for an unparseable URL, another scheme, or plain http to a non-loopback host.
 */
export function checkBaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`invalid gateway URL '${url}': expected e.g. https://gateway.example.com/airlock/rest`);
  }
  if (parsed.username || parsed.password) {
    throw new ConfigError('the gateway URL must not contain credentials: put the API key in GWOPS_API_KEY or an API key file');
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:') {
    if (isLoopbackHost(parsed.hostname)) return parsed;
    const https = new URL(parsed.href);
    https.protocol = 'https:';
    throw new ConfigError(
      `refusing plain http:// to ${parsed.host}: the API key and session cookie would travel unencrypted. ` +
        `Use ${https.href.replace(/\/$/, '')} (plain http is allowed only for loopback hosts: localhost, 127.0.0.0/8, ::1)`,
    );
  }
  throw new ConfigError(`unsupported scheme '${parsed.protocol}' in gateway URL: use https://`);
}
