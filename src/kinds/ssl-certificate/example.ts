import type { ExampleHook } from '../example.js';

/**
 * A server certificate for `<name>.example.com` with its private key, made by the caller's
 * fixture (its PEM is the identity, so the update changes `certType`, not the PEM).
 */
export const example: ExampleHook = async (name, fixtures) => {
  const { certificate, privateKey } = await fixtures.certificate(`${name}.example.com`);
  return {
    attributes: { certType: 'SERVER_CERT', certificate, privateKey },
    update: { certType: 'CLIENT_CERT' },
  };
};
