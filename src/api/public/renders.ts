// POST /renders (spec §4 Render): the image is the response body, with its exact length.
import { renderNow } from '../../app/renders.ts';
import type { ApiDeps } from '../deps.ts';
import type { Routes } from '../types.ts';

export const renderRoutes = (d: ApiDeps): Routes<'key'> => [
  {
    method: 'POST',
    path: '/renders',
    body: 'json',
    handler: async (req) => {
      const image = await renderNow(d, req.caller, req.json, req.id);
      return {
        status: 200,
        ...(image.headers ? { headers: image.headers } : {}),
        raw: { contentType: image.contentType, bytes: image.bytes },
      };
    },
  },
];
