// The dashboard's keys (listed, made, revoked) and its test top-ups.
import { listKeys, newKey, revokeAccountKey, testTopUp } from '../../app/dashboard.ts';
import { displayName } from '../../domain/users.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf, wholeNumber } from '../input.ts';
import { ok, type Routes } from '../types.ts';
import { modeOf } from './account.ts';

export const keyRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/accounts/{account}/keys',
    body: 'none',
    handler: async (req) => ok(await listKeys(d, req.session, req.params.account!, modeOf(req))),
  },
  {
    method: 'POST',
    path: '/accounts/{account}/keys',
    body: 'json',
    handler: async (req) => {
      allowOnly(req.json, ['mode', 'name']);
      const m = oneOf('mode', req.json.mode, MODES);
      const name = displayName(req.json.name ?? `${m} key`, 'name');
      const { key, record } = await newKey(d, req.session, req.params.account!, { mode: m, name });
      return ok({ ...record, key }, 201);
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/keys/{key}/revoke',
    body: 'none',
    handler: async (req) => ok(await revokeAccountKey(d, req.session, req.params.account!, req.params.key!)),
  },
  {
    method: 'POST',
    path: '/accounts/{account}/topups',
    body: 'json',
    handler: async (req) => {
      allowOnly(req.json, ['sheets']);
      const sheets = wholeNumber('sheets', req.json.sheets, 50, 1000);
      return ok(await testTopUp(d, req.session, req.params.account!, sheets), 201);
    },
  },
];
