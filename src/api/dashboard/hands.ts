// The dashboard's hands (docs/personal-hands.md): the sample sheet to print, a hand started from
// a picture of a filled page, more pictures (other pages, pages written again for some drawings),
// its edits, its preview (every drawing, the warnings, a sample paragraph), its build into a
// personal font, and its deletion.
import {
  addHandPicture,
  buildHandFont,
  createHand,
  deleteHand,
  editHand,
  listHands,
  previewHand,
} from '../../app/hands.ts';
import { personalFontsAllowed } from '../../app/personal-fonts.ts';
import { sampleSheet } from '../../app/sample-sheet.ts';
import type { ApiDeps } from '../deps.ts';
import { allowOnly, oneOf } from '../input.ts';
import { queryParams } from '../query.ts';
import { header, ok, type RouteRequest, type Routes } from '../types.ts';
import { fontSummary, handView } from '../views.ts';
import { callerOf } from './account.ts';

const PAPERS = ['a4', 'letter'] as const;
const SETS = ['basic', 'latin1', 'ligatures'] as const;

export const handRoutes = (d: ApiDeps): Routes<'session'> => {
  const base = '/accounts/{account}/hands';
  const picture = (req: RouteRequest<'session'>) => ({
    bytes: new Uint8Array(req.body.buffer, req.body.byteOffset, req.body.byteLength),
    type: header(req, 'content-type') ?? '',
  });
  return [
    {
      method: 'GET',
      path: '/accounts/{account}/hand-sheet',
      body: 'none',
      handler: async (req) => {
        const q = queryParams(req, ['paper', 'set', 'format']);
        const paper = oneOf('paper', q.paper, PAPERS, 'a4');
        const set = oneOf('set', q.set, SETS, 'basic');
        const format = oneOf('format', q.format, ['pdf', 'json'] as const, 'pdf');
        const { layout, pdf } = await sampleSheet(set, paper, d.now());
        const name = `scriptorium-sheet-${set}-${paper}`;
        if (format === 'json')
          return {
            status: 200,
            headers: { 'Content-Disposition': `attachment; filename="${name}.json"` },
            json: layout,
          };
        return {
          status: 200,
          headers: { 'Content-Disposition': `attachment; filename="${name}.pdf"` },
          raw: { contentType: 'application/pdf', bytes: pdf },
        };
      },
    },
    {
      method: 'GET',
      path: base,
      body: 'none',
      handler: async (req) => {
        const caller = await callerOf(d, req, 'live');
        const c = d.config;
        return ok({
          data: (await listHands(d, caller)).map(handView),
          personalFonts: personalFontsAllowed(d, caller),
          limits: { maxBytes: c.assetMaxBytes, maxSide: c.assetMaxSide, maxPixels: c.assetMaxPixels },
        });
      },
    },
    {
      method: 'POST',
      path: base,
      body: 'image',
      handler: async (req) => {
        const caller = await callerOf(d, req, 'live');
        const q = queryParams(req, ['mode', 'name']);
        return ok(handView(await createHand(d, caller, { name: q.name ?? '', picture: picture(req) })), 201);
      },
    },
    {
      method: 'GET',
      path: `${base}/{hand}`,
      body: 'none',
      handler: async (req) => {
        const caller = await callerOf(d, req, 'live');
        const { hand, preview } = await previewHand(d, caller, req.params.hand!);
        return ok({
          hand: handView(hand),
          preview: preview.ok
            ? { ...preview, sample: Buffer.from(preview.sample).toString('base64') }
            : preview,
        });
      },
    },
    {
      method: 'POST',
      path: `${base}/{hand}/pictures`,
      body: 'image',
      handler: async (req) => {
        const caller = await callerOf(d, req, 'live');
        const q = queryParams(req, ['mode', 'redo']);
        const redo = q.redo === undefined ? undefined : q.redo.split(',');
        return ok(
          handView(await addHandPicture(d, caller, req.params.hand!, { picture: picture(req), redo })),
          201,
        );
      },
    },
    {
      method: 'POST',
      path: `${base}/{hand}/edits`,
      body: 'json',
      handler: async (req) => {
        allowOnly(req.json, ['edits']);
        const caller = await callerOf(d, req, 'live');
        return ok(handView(await editHand(d, caller, req.params.hand!, req.json.edits)));
      },
    },
    {
      method: 'POST',
      path: `${base}/{hand}/build`,
      body: 'none',
      handler: async (req) => {
        const caller = await callerOf(d, req, 'live');
        const { hand, font } = await buildHandFont(d, caller, req.params.hand!);
        return ok({ hand: handView(hand), font: fontSummary(font, true) });
      },
    },
    {
      method: 'POST',
      path: `${base}/{hand}/delete`,
      body: 'none',
      handler: async (req) => {
        const caller = await callerOf(d, req, 'live');
        return ok(handView(await deleteHand(d, caller, req.params.hand!)));
      },
    },
  ];
};
