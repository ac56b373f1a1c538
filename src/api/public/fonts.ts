// GET /fonts (spec §2 Font): metadata of shared fonts and the account's personal ones. Never the
// file, a URL to it or its glyphs.
import { fontsPage } from '../../app/reads.ts';
import type { ApiDeps } from '../deps.ts';
import { listParams } from '../query.ts';
import { ok, type Routes } from '../types.ts';
import { fontSummary } from '../views.ts';

export const fontRoutes = (d: ApiDeps): Routes<'key'> => [
  {
    method: 'GET',
    path: '/fonts',
    body: 'none',
    handler: async (req) => {
      const { limit, cursor } = listParams(req);
      const { page, premium } = await fontsPage(d, req.caller.account, { limit, cursor });
      return ok({ ...page, data: page.data.map((f) => fontSummary(f, premium)) });
    },
  },
];
