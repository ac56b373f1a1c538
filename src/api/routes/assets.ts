// POST /assets (spec §4 Assets): raw PNG or JPEG bytes in, `id`, `type`, `width`, `height` out.
import { uploadAsset } from '../../app/assets.ts';
import type { ApiDeps } from '../deps.ts';
import { queryParams } from '../query.ts';
import { header, type Route } from '../types.ts';

export function assetRoutes(d: ApiDeps): Route[] {
  return [
    {
      method: 'POST',
      path: '/assets',
      body: 'image',
      handler: async (req) => {
        queryParams(req, []);
        const a = await uploadAsset(d, req.caller.tenant, req.body, header(req, 'content-type'));
        return {
          status: 201,
          json: {
            id: a.id,
            type: a.type,
            width: a.width,
            height: a.height,
            bytes: a.bytes,
            createdAt: a.createdAt,
          },
        };
      },
    },
  ];
}
