import type { ExampleHook } from '../example.js';

/**
 * An HTTP-only host: with HTTPS disabled (and HTTP/2 with it, which needs HTTPS) its
 * certificate mode needs no link, so it is valid on its own and each of its links can be
 * made and removed alone. The update sets the server admin's address.
 */
export const example: ExampleHook = (name) => ({
  attributes: { hostName: `${name}.example.com`, networkInterface: { https: { enabled: false, http2Allowed: false } } },
  update: { serverAdmin: `webmaster@${name}.example.com` },
});
