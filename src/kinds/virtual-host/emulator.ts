import type { EmulatorHooks, Emit, JsonObject, RuleContext, StoredObject, ValidatorRules } from '../emulator-hooks.js';
import { member } from '../emulator-hooks.js';

const TITLES = {
  HTTP2_WITHOUT_HTTPS: 'HTTP/2 allowed without HTTPS',
  CERTIFICATE_MISSING: 'SSL certificate missing',
  ACME_SERVICE_MISSING: 'ACME service missing',
  HTTPS_WITHOUT_CERTIFICATE: 'HTTPS without certificate',
} as const;

/**
 * - `HTTP2_WITHOUT_HTTPS` (ERROR): `networkInterface.https.http2Allowed` true while
 *   `https.enabled` is not true ("Resource: virtual-host").
 * - For a virtual host with HTTPS enabled, at most one of: in the latest variant,
 *   `CERTIFICATE_MISSING` (certificateMode CERTIFICATE, no `ssl-certificate` link) or
 *   `ACME_SERVICE_MISSING` (ACME_SERVICE, no `acme-service` link); otherwise
 *   `HTTPS_WITHOUT_CERTIFICATE` (ERROR) when it has neither link (earliest/middle: no
 *   ssl-certificate and `tls.letsEncryptEnabled` not true). Decision: a host with HTTPS
 *   disabled needs no certificate, whatever its certificateMode (the mode cannot be unset,
 *   so an HTTP-only host would otherwise never activate).
 */
function check(hosts: ReadonlyMap<string, StoredObject>, { variant, label, linked }: RuleContext, emit: Emit<keyof typeof TITLES>): void {
  const latest = variant === 'latest';
  for (const host of hosts.values()) {
    const attrs: Readonly<JsonObject> = host.attributes;
    const httpsEnabled = member(attrs, 'networkInterface', 'https', 'enabled') === true;
    if (member(attrs, 'networkInterface', 'https', 'http2Allowed') === true && !httpsEnabled) {
      emit('ERROR', 'HTTP2_WITHOUT_HTTPS', host, `The ${label(host)} allows HTTP/2 while HTTPS is disabled; HTTP/2 requires HTTPS.`);
    }
    if (!httpsEnabled) continue;
    const hasCertificate = linked(host, 'ssl-certificate');
    const hasAcme = latest && linked(host, 'acme-service');
    const mode = latest ? member(attrs, 'tls', 'certificateMode') : undefined;
    if (mode === 'CERTIFICATE' && !hasCertificate) {
      emit('ERROR', 'CERTIFICATE_MISSING', host, `The ${label(host)} has certificate mode CERTIFICATE but no SSL certificate.`);
    } else if (mode === 'ACME_SERVICE' && !hasAcme) {
      emit('ERROR', 'ACME_SERVICE_MISSING', host, `The ${label(host)} has certificate mode ACME_SERVICE but no ACME service.`);
    } else if (mode === undefined && !hasCertificate && !hasAcme && member(attrs, 'tls', 'letsEncryptEnabled') !== true) {
      emit(
        'ERROR',
        'HTTPS_WITHOUT_CERTIFICATE',
        host,
        latest
          ? `The ${label(host)} has HTTPS enabled but neither an SSL certificate nor an ACME service.`
          : `The ${label(host)} has HTTPS enabled but no SSL certificate.`,
      );
    }
  }
}

const validator: ValidatorRules<keyof typeof TITLES> = { titles: TITLES, check };

/** The emulator's hooks for `virtual-host`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'virtual host',
  defaults: {
    recorded: 'virtual-host.yaml',
    // Variant-only TLS attributes (docs/gateway-api.md "Variants").
    extra: {
      name: '',
      hostName: '',
      networkInterface: { externalLogicalInterfaceName: '' },
      tls: {
        lowStrengthCiphersAllowed: false,
        certificateMode: 'CERTIFICATE',
        acmeChallengeType: 'TLS_ALPN_01',
        signatureAlgorithms: '',
        signatureAlgorithmsMode: 'DEFAULT',
      },
    },
  },
  validator,
  // The gateway's default virtual host, served with the default certificate (the
  // ssl-certificate built-in -1000; docs/gateway-api.md "Documents and ids").
  builtIns: [{ id: '-1000', given: { name: 'default', hostName: 'localhost' }, links: { 'ssl-certificate': ['-1000'] } }],
  // `POST`/`DELETE .../virtual-hosts/{id}/maintenance` (docs/gateway-api.md "Resource types").
  itemActions: [
    { method: 'POST', segment: 'maintenance', attributes: { showMaintenancePage: true } },
    { method: 'DELETE', segment: 'maintenance', attributes: { showMaintenancePage: false } },
  ],
};
