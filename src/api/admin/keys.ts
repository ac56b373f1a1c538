// The admin API's keys: an account's list, a new key (shown once), a revocation.
import { createKey, listKeys, revokeKey } from '../../app/admin.ts';
import { invalid } from '../../domain/errors.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf } from '../input.ts';
import { ok, type Routes } from '../types.ts';
import { keyView } from '../views.ts';

export const keyRoutes = (d: ApiDeps): Routes<'admin'> => [
  {
    method: 'GET',
    path: '/accounts/{id}/keys',
    body: 'none',
    handler: async (req) => ok({ data: (await listKeys(d, req.params.id!)).map(keyView) }),
  },
  {
    method: 'POST',
    path: '/accounts/{id}/keys',
    body: 'json',
    handler: async (req) => {
      const b = req.json;
      allowOnly(b, ['mode', 'name']);
      const mode = oneOf('mode', b.mode, MODES, 'live');
      if (b.name !== undefined && typeof b.name !== 'string') throw invalid('name', 'a string', b.name);
      const { key, record } = await createKey(d, {
        account: req.params.id!,
        mode,
        ...(b.name ? { name: b.name } : {}),
      });
      return ok({ ...keyView(record), key }, 201);
    },
  },
  {
    method: 'POST',
    path: '/keys/{id}/revoke',
    body: 'none',
    handler: async (req) => ok(keyView(await revokeKey(d, req.params.id!))),
  },
];
