import type { EmulatorHooks } from '../emulator-hooks.js';

/**
 * The gateway's default server certificate (self-signed, `CN=gateway default certificate`),
 * a built-in of every fresh emulator (docs/gateway-api.md "Documents and ids"). A fixed
 * PEM, so that its fingerprint (a certificate's identity) is the same on every run.
 */
const DEFAULT_CERTIFICATE = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBozCCAUmgAwIBAgIUEwtFa/KmNEkC7HWCK27KGm4fFBcwCgYIKoZIzj0EAwIw',
  'JjEkMCIGA1UEAwwbZ2F0ZXdheSBkZWZhdWx0IGNlcnRpZmljYXRlMCAXDTI2MTEy',
  'MzE0MzAxN1oYDzIwNTYxMTE1MTQzMDE3WjAmMSQwIgYDVQQDDBtnYXRld2F5IGRl',
  'ZmF1bHQgY2VydGlmaWNhdGUwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARFu8oF',
  'kcectQ9SOtl3yOpDHStQ7hBcO53760Z25eCUkGfxbgnWLyOlhnFJ+H023UwPKU9W',
  'TCudFy8JKrHsYSKro1MwUTAdBgNVHQ4EFgQUduFeuUM170pkYgMhWBN9hd7qTnww',
  'HwYDVR0jBBgwFoAUduFeuUM170pkYgMhWBN9hd7qTnwwDwYDVR0TAQH/BAUwAwEB',
  '/zAKBggqhkjOPQQDAgNIADBFAiEA8Ex0aJKIN6wMMNxFz5+L35OLCbeSnbKIbgMY',
  '241ULusCIGIzetWwqSOKDbLC0ebdqwH5YQJM5UWxEA+hj5iex9fz',
  '-----END CERTIFICATE-----',
  '',
].join('\n');

/** The emulator's hooks for `ssl-certificate`: see EmulatorHooks. */
export const emulator: EmulatorHooks = {
  label: 'SSL certificate',
  // No recording: every default is here (a certificate has no `name`).
  defaults: {
    extra: { certType: 'SERVER_CERT', certificate: '', certificateChain: [], rootCaCertificate: '' },
  },
  builtIns: [{ id: '-1000', given: { certType: 'SERVER_CERT', certificate: DEFAULT_CERTIFICATE } }],
};
