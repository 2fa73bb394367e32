import type { ExampleHook } from '../example.js';

/** An ACME account: the CA's directory and a contact (valid on its own); the update changes the contact. */
export const example: ExampleHook = (name) => ({
  attributes: { serverUrl: 'https://acme.example.com/directory', contactEmailAddress: `${name}@example.com` },
  update: { contactEmailAddress: `security-${name}@example.com` },
});
