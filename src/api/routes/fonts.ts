// GET /fonts (spec §2 Font): metadata of shared fonts and the account's personal ones. Never the
// file, a URL to it or its glyphs.
import { fontsPage } from '../../app/reads.ts';
import type { FontRecord } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { listParams } from '../query.ts';
import type { Route } from '../types.ts';

export function fontSummary(f: FontRecord, premiumAllowed: boolean) {
  return {
    id: f.id,
    name: f.name,
    family: f.family,
    personal: f.accountId !== null,
    premium: f.premium,
    /** Whether the caller's plan may use it now (premium fonts need an eligible plan). */
    usable: !f.premium || premiumAllowed,
    scripts: f.scripts,
    glyphCount: f.glyphCount,
    license: f.license,
    createdAt: f.createdAt,
  };
}

export function fontRoutes(d: ApiDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/fonts',
      body: 'none',
      handler: async (req) => {
        const { limit, cursor } = listParams(req);
        const { page, premium } = await fontsPage(d, req.caller.account, { limit, cursor });
        return { status: 200, json: { ...page, data: page.data.map((f) => fontSummary(f, premium)) } };
      },
    },
  ];
}
