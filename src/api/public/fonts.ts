// GET /fonts (spec §2 Font): metadata of shared fonts and the account's personal ones, never a
// URL to a file or its glyphs. GET /fonts/{fontId}/file (an extension): a font the account built
// from a hand, as a file to use in other software (OpenType or WOFF2).
import { FONT_FILE_FORMATS, personalFontFile } from '../../app/personal-fonts.ts';
import { fontsPage } from '../../app/reads.ts';
import type { ApiDeps } from '../deps.ts';
import { oneOf } from '../input.ts';
import { listParams, queryParams } from '../query.ts';
import { attachedBytes, ok, type Routes } from '../types.ts';
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
  {
    method: 'GET',
    path: '/fonts/{fontId}/file',
    body: 'none',
    handler: async (req) => {
      const format = oneOf('format', queryParams(req, ['format']).format, FONT_FILE_FORMATS, 'otf');
      const file = await personalFontFile(d, req.caller.account.id, req.params.fontId!, format);
      return attachedBytes(file.filename, file.contentType, file.bytes);
    },
  },
];
