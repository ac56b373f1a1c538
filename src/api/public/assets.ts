// POST /assets (spec §4 Assets): raw PNG or JPEG bytes in, `id`, `type`, `width`, `height` out.
import { uploadAsset } from '../../app/assets.ts';
import type { AssetRecord } from '../../app/reads.ts';
import type { ApiDeps } from '../deps.ts';
import { remember } from '../idempotency.ts';
import { queryParams } from '../query.ts';
import { header, ok, type Reply, type Routes } from '../types.ts';
import { assetView } from '../views.ts';

const created = (a: AssetRecord): Reply => ok(assetView(a), 201);

export const assetRoutes = (d: ApiDeps): Routes<'key'> => [
  {
    method: 'POST',
    path: '/assets',
    body: 'image',
    idempotency: 'kept',
    handler: async (req) => {
      queryParams(req, []);
      const type = header(req, 'content-type');
      return created(await uploadAsset(d, req.caller.tenant, req.body, type, remember(req, created)));
    },
  },
];
