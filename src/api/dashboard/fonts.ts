// The dashboard's fonts: the account's list with what its plan allows, and its personal fonts
// (uploaded, renamed, deleted).
import { FONT_MAX_BYTES } from '../../domain/fonts.ts';
import {
  addPersonalFont,
  deletePersonalFont,
  FONT_FILE_FORMATS,
  personalFontFile,
  personalFontsAllowed,
  renamePersonalFont,
} from '../../app/personal-fonts.ts';
import { fontsPage, planOf } from '../../app/reads.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, MODES, oneOf } from '../input.ts';
import { queryParams } from '../query.ts';
import { attachedBytes, ok, type Routes } from '../types.ts';
import { fontSummary } from '../views.ts';
import { callerOf } from './account.ts';

export const fontRoutes = (d: ApiDeps): Routes<'session'> => [
  {
    method: 'GET',
    path: '/accounts/{account}/fonts/{font}/file',
    body: 'none',
    handler: async (req) => {
      const caller = await callerOf(d, req, 'live');
      const format = oneOf('format', queryParams(req, ['format']).format, FONT_FILE_FORMATS, 'otf');
      const file = await personalFontFile(d, caller.account.id, req.params.font!, format);
      return attachedBytes(file.filename, file.contentType, file.bytes);
    },
  },
  {
    method: 'GET',
    path: '/accounts/{account}/fonts',
    body: 'none',
    handler: async (req) => {
      const caller = await callerOf(d, req);
      const { account } = caller;
      const { page, premium } = await fontsPage(d, account, { limit: 100 });
      return ok({
        data: page.data.map((f) => fontSummary(f, premium)),
        plan: planOf(d, account)?.name ?? account.plan,
        premiumFonts: premium,
        personalFonts: personalFontsAllowed(d, caller),
        maxBytes: FONT_MAX_BYTES,
      });
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/fonts',
    body: 'font',
    handler: async (req) => {
      // Fonts belong to the account, not to a key mode: the mode shown is accepted, not needed.
      const q = queryParams(req, ['mode', 'name']);
      const caller = await callerOf(d, req, oneOf('mode', q.mode, MODES, 'live'));
      const added = await addPersonalFont(d, caller, {
        bytes: req.body,
        name: q.name ?? '',
      });
      return ok(
        {
          font: fontSummary(added.font, true),
          sample: { line: added.line, png: Buffer.from(added.sample).toString('base64') },
        },
        201,
      );
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/fonts/{font}/rename',
    body: 'json',
    handler: async (req) => {
      allowOnly(req.json, ['name']);
      const caller = await callerOf(d, req, 'live');
      return ok(fontSummary(await renamePersonalFont(d, caller, req.params.font!, req.json.name), true));
    },
  },
  {
    method: 'POST',
    path: '/accounts/{account}/fonts/{font}/delete',
    body: 'none',
    handler: async (req) => {
      const { account } = await callerOf(d, req, 'live');
      return ok(fontSummary(await deletePersonalFont(d, account.id, req.params.font!), true));
    },
  },
];
