// A hand to take anywhere (GET /api/v1/fonts/{fontId}/file, an extension): a hand built in the
// dashboard from photos of a filled sheet is given back as OpenType and as WOFF2. The OpenType
// file passes fc-scan; shaped with HarfBuzz, a repeated letter changes under calt (on by default)
// and stays one drawing with calt off, ss03 gives the same rotation, ss01 and ss02 a letter's
// other drawings; the sheet's ligatures are under liga, and the engine writes them in a render;
// the engine's own table is left out. Only the key's account's fonts built from a
// hand are given: another account's, a shared font or a bad format is refused by field.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hb from 'harfbuzzjs';
import t from 'tap';
import { decompress } from 'wawoff2';
import { createKey } from '../../src/app/admin.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { sheetLayout } from '../../src/foundry/index.ts';
import { dashboardCall, signUpOverHttp } from '../helpers/dashboard-api.ts';
import { bundledFontSource } from '../helpers/fonts.ts';
import { sheetPhotos } from '../helpers/sheet-photo.ts';
import { textSpec } from '../helpers/specs.ts';
import { layout as layOut, resourcesOf } from '../../src/render/index.ts';
import { fontBytes } from '../../workers/fonts.ts';
import { call, startTestServer } from '../helpers/server.ts';

const server = await startTestServer(t, {});
const dir = mkdtempSync(join(tmpdir(), 'scriptorium-font-file-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** The tables of an sfnt file, by tag. */
function tables(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: view.getUint16(4) }, (_, i) =>
    String.fromCharCode(...bytes.subarray(12 + 16 * i, 16 + 16 * i)),
  );
}

/** The glyphs HarfBuzz gives `text` in the font, with `features`. */
function glyphs(bytes: Uint8Array, text: string, features: string[] = []): number[] {
  const font = new hb.Font(new hb.Face(new hb.Blob(bytes), 0));
  const buf = new hb.Buffer();
  buf.addText(text);
  buf.guessSegmentProperties();
  hb.shape(
    font,
    buf,
    features.map((f) => hb.Feature.fromString(f)!),
  );
  return buf.getGlyphInfos().map((g) => g.codepoint);
}

t.test('a hand built in the dashboard, given back as OpenType and WOFF2', async (t) => {
  const s = await signUpOverHttp(server, 'writer@fonts.example');
  // The sheet with the ligature set: th ff fi fl tt ll oo ee written joined, two drawings each.
  const [page1, ...others] = (
    await sheetPhotos(sheetLayout('ligatures', 'a4'), bundledFontSource('kalam'))
  ).map((p) => p.bytes);
  t.equal(others.length, 2, 'three pages');
  const made = await dashboardCall(server, s, 'POST', '/hands?name=Kalam%20of%20mine', page1, 'image/jpeg');
  t.equal(made.status, 201, 'a hand started on the plan a new account has');
  const hand = made.body.id as string;
  for (const page of others)
    t.equal(
      (await dashboardCall(server, s, 'POST', `/hands/${hand}/pictures`, page, 'image/jpeg')).status,
      201,
    );
  // An edit out of range is refused by field, and changes nothing.
  for (const [edit, field, said] of [
    [{ scale: 160 }, 'scale', /must be a whole per cent from 50 to 150, got 160/],
    [{ scale: 99.5 }, 'scale', /got 99\.5/],
    [{ shift: -301 }, 'shift', /must be a whole number from -300 to 300, got -301/],
    [{ tilt: 3 }, 'tilt', /has no field tilt/],
  ] as const) {
    const r = await dashboardCall(
      server,
      s,
      'POST',
      `/hands/${hand}/edits`,
      JSON.stringify({ edits: { drawings: { 'a/1': edit } } }),
    );
    t.equal(r.status, 400, `${JSON.stringify(edit)}: 400`);
    t.equal(r.body.error.field, `edits.drawings.a/1.${field}`);
    t.match(r.body.error.message, said);
  }
  const kept = await dashboardCall(
    server,
    s,
    'POST',
    `/hands/${hand}/edits`,
    JSON.stringify({ edits: { drawings: { 'a/1': { shift: 40, scale: 110 } } } }),
  );
  t.equal(kept.status, 200, 'a drawing moved right and enlarged');
  t.same(kept.body.edits.drawings['a/1'], { shift: 40, scale: 110 });
  const built = await dashboardCall(server, s, 'POST', `/hands/${hand}/build`);
  t.equal(built.status, 200, 'built');
  const fontId = built.body.font.id as string;
  const deps = {
    store: server.ctx.store,
    blobs: server.ctx.blobs,
    config: server.ctx.config,
    now: () => new Date(),
  };
  const key = (await createKey(deps, { account: s.account, mode: 'test', name: 'files' })).key;

  const listed = await call(t, server, 'GET', '/fonts?limit=100', { key });
  t.match(
    listed.body.data.find((f: { id: string }) => f.id === fontId),
    { personal: true, fromHand: true },
    'GET /fonts says the font was built from a hand',
  );
  const otf = await call(t, server, 'GET', `/fonts/${fontId}/file`, { key });
  t.equal(otf.status, 200);
  t.equal(otf.headers.get('content-type'), 'font/otf');
  t.equal(otf.headers.get('content-disposition'), 'attachment; filename="Kalam of mine.otf"');
  const bytes = new Uint8Array(otf.bytes);
  t.equal(String.fromCharCode(...bytes.subarray(0, 4)), 'OTTO', 'OpenType with CFF outlines');
  t.notOk(tables(bytes).includes('PENS'), "the engine's table of pen strokes is left out");
  const file = join(dir, 'mine.otf');
  writeFileSync(file, bytes);
  const scanned = execFileSync('fc-scan', ['--format', '%{family}|%{fontformat}|%{charset}\\n', file], {
    encoding: 'utf8',
  });
  t.match(scanned, /^Kalam of mine\|CFF\|20-.* 61-7a /, `fc-scan reads it: ${scanned.trim().slice(0, 80)}`);

  const face = new hb.Face(new hb.Blob(bytes), 0);
  t.same(face.getTableFeatureTags('GSUB'), ['calt', 'liga', 'salt', 'ss01', 'ss02', 'ss03'], 'its features');
  const joined = glyphs(bytes, 'th coffee fill', ['-calt']);
  const apart = glyphs(bytes, 'th coffee fill', ['-calt', '-liga']);
  t.equal(
    apart.length - joined.length,
    5,
    `th, ff, ee, fi and ll are one drawing each under liga: ${joined} against ${apart}`,
  );
  const usual = glyphs(bytes, 'a', ['-calt'])[0]!;
  const rotated = glyphs(bytes, 'aaaaaa');
  t.equal(
    new Set(rotated).size,
    3,
    `calt on: a repeated letter takes its three drawings in turn (${rotated})`,
  );
  t.same(rotated.slice(0, 3), rotated.slice(3), 'in a rotation');
  t.same(glyphs(bytes, 'aaaaaa', ['-calt']), Array(6).fill(usual), 'calt off: one drawing');
  t.same(glyphs(bytes, 'aaaaaa', ['-calt', 'ss03']), rotated, 'ss03: the same rotation');
  const second = glyphs(bytes, 'a', ['-calt', 'ss01'])[0]!;
  const third = glyphs(bytes, 'a', ['-calt', 'ss02'])[0]!;
  t.same(new Set([usual, second, third]).size, 3, 'ss01 and ss02: the second and third drawing');
  t.same(new Set(rotated), new Set([usual, second, third]), 'the rotation deals exactly those');
  const hello = glyphs(bytes, 'hello', ['-liga']);
  t.not(hello[2], hello[3], 'the two l of "hello" are drawn differently');

  // The engine writes the hand's ligatures too: the letters the person joined, not type's.
  const font = (await server.ctx.store.fonts.getVisible(s.account, fontId))!;
  const own = (await server.ctx.blobs.get(font.location))!;
  const spec = textSpec(
    { fontId, fontSize: 18, pageSize: 'A5' },
    'Thank you for the coffee and the waffles.',
  );
  const fallbacks = resourcesOf(spec).fonts.filter((id) => id !== fontId);
  const list = layOut(spec, { fonts: { ...fontBytes(fallbacks), [fontId]: own }, images: {} });
  const drawn = new Set(
    Object.values(list.glyphs)
      .filter((g) => g.font === fontId)
      .map((g) => g.gid),
  );
  // Each ligature's drawings: its first and its second (ss01); the engine deals either.
  const drawingsOf = (pair: string) => [
    glyphs(own, pair, ['-calt'])[0]!,
    glyphs(own, pair, ['-calt', 'ss01'])[0]!,
  ];
  const single = new Set([...'thfe'].flatMap((c) => glyphs(own, c, ['-calt', '-liga'])));
  for (const pair of ['th', 'ff', 'ee']) {
    const ways = drawingsOf(pair);
    t.ok(
      ways.every((g) => !single.has(g)),
      `${pair}: drawings of its own (${ways})`,
    );
    t.ok(
      ways.some((g) => drawn.has(g)),
      `the render writes ${pair} as the person joined it (${ways} among ${drawn.size} drawings)`,
    );
  }

  const woff2 = await call(t, server, 'GET', `/fonts/${fontId}/file?format=woff2`, { key });
  t.equal(woff2.status, 200);
  t.equal(woff2.headers.get('content-type'), 'font/woff2');
  const packed = new Uint8Array(woff2.bytes);
  t.equal(String.fromCharCode(...packed.subarray(0, 4)), 'wOF2', 'WOFF2');
  t.ok(packed.length < bytes.length * 0.8, `smaller: ${packed.length} of ${bytes.length} bytes`);
  const unpacked = await decompress(packed);
  t.same(tables(unpacked).sort(), tables(bytes).sort(), 'unpacked, the same tables');
  t.same(glyphs(unpacked, 'aaaaaa'), rotated, 'and the same rotation');

  const dashboard = await fetch(
    `${server.base}/dashboard/v1/accounts/${s.account}/fonts/${fontId}/file?format=woff2`,
    {
      headers: { cookie: s.cookie },
    },
  );
  t.equal(dashboard.status, 200, 'the dashboard gives it too');
  t.same(new Uint8Array(await dashboard.arrayBuffer()), packed);

  // Refusals: by field, and nothing of another account's.
  const bad = await call(t, server, 'GET', `/fonts/${fontId}/file?format=ttf`, { key });
  t.equal(bad.status, 400);
  t.equal(bad.body.error.field, 'format');
  t.match(bad.body.error.message, /format must be one of otf, woff2, got "ttf"/);
  const shared = await call(t, server, 'GET', `/fonts/${bundledFontId('caveat')}/file`, { key });
  t.equal(shared.status, 404, 'a shared font: 404');
  t.equal(shared.body.error.code, 'FONT_NOT_FOUND');
  const other = await signUpOverHttp(server, 'other@fonts.example');
  const otherKey = (await createKey(deps, { account: other.account, mode: 'test', name: 'x' })).key;
  const theirs = await call(t, server, 'GET', `/fonts/${fontId}/file`, { key: otherKey });
  t.equal(theirs.status, 404, "another account's font: 404");
  t.equal(theirs.body.error.code, 'FONT_NOT_FOUND');
});
