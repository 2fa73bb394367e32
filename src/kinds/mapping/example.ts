import type { ExampleHook } from '../example.js';

/**
 * A plain (not regular-expression) entry path; it needs a back-end group (without one the
 * validator reports MAPPING_WITHOUT_BACKEND_GROUP, an ERROR; without a virtual host only a
 * WARNING). The update changes the back-end path.
 */
export const example: ExampleHook = (name) => ({
  attributes: { entryPath: { value: `/${name}/` }, backendPath: '/' },
  update: { backendPath: '/v2/' },
  requires: [{ relationship: 'back-end-groups' }],
});
