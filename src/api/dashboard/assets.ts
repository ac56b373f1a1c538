// The dashboard's images: listed with the account's limits, uploaded, shown, deleted.
import { deleteAsset, uploadAsset } from '../../app/assets.ts';
import { assetImage, assetsOf } from '../../app/reads.ts';
import { Refusal } from '../../domain/errors.ts';
import { shownId } from '../../domain/ids.ts';
import type { ApiDeps } from '../deps.ts';
import { header, ok, type Routes } from '../types.ts';
import { assetView } from '../views.ts';
import { tenantOf } from './account.ts';

export const assetRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/accounts/{account}/assets',
    body: 'none',
    handler: async (req) => {
      const tenant = tenantOf(req);
      const c = d.config;
      const { data, used } = await assetsOf(d, tenant);
      return ok({
        data: data.map(assetView),
        used,
        limits: {
          maxBytes: c.assetMaxBytes,
          maxSide: c.assetMaxSide,
          maxPixels: c.assetMaxPixels,
          maxCount: c.assetsMaxCount,
          maxTotalBytes: c.assetsMaxTotalBytes,
        },
      });
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/assets',
    body: 'image',
    handler: async (req) =>
      ok(assetView(await uploadAsset(d, tenantOf(req), req.body, header(req, 'content-type'))), 201),
  },
  {
    method: 'GET',
    path: '/accounts/{account}/assets/{asset}/image',
    body: 'none',
    handler: async (req) => {
      const image = await assetImage(d, tenantOf(req), req.params.asset!);
      if (!image)
        throw new Refusal(
          'missing',
          `image ${shownId(req.params.asset!)} does not exist for this account and mode`,
        );
      return {
        status: 200,
        headers: { 'Cache-Control': 'private, max-age=3600' },
        raw: { contentType: image.asset.type, bytes: image.bytes },
      };
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/assets/{asset}/delete',
    body: 'none',
    handler: async (req) => ok(assetView(await deleteAsset(d, tenantOf(req), req.params.asset!))),
  },
];
