// POST /assets (spec §4 Assets): raw PNG or JPEG bytes in, `id`, `type`, `width`, `height` out.
import { uploadAsset } from '../../app/assets.ts';
import type { AssetRecord } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { remember } from '../idempotency.ts';
import { queryParams } from '../query.ts';
import { header, type Reply, type Route } from '../types.ts';

const created = (a: AssetRecord): Reply => ({
  status: 201,
  json: { id: a.id, type: a.type, width: a.width, height: a.height, bytes: a.bytes, createdAt: a.createdAt },
});

export function assetRoutes(d: ApiDeps): Route[] {
  return [
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
}
