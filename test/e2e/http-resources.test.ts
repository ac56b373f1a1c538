// Templates, fonts, usage and assets over a real socket, every response checked against the
// OpenAPI document.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { addFont, importTemplate } from '../../src/app/admin.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import {
  giantBomb,
  gif,
  jpeg,
  jpegWithFillBytes,
  jpegWithScans,
  palettePng,
  png,
  pngOf,
  progressiveJpeg,
  svg,
  webp,
  zlibBomb,
} from '../helpers/images.ts';
import { call, jobFinished, startTestServer } from '../helpers/server.ts';

const server = await startTestServer(t);
const a = await server.tenant();
const b = await server.tenant({ plan: 'none' });

t.test("GET /templates: the key mode's templates, newest first, in pages", async (t) => {
  const all = await call(t, server, 'GET', '/templates', { key: a.live });
  t.equal(all.status, 200);
  t.same(
    all.body.data.map((x: { id: string }) => x.id),
    [a.templates.live.legacy, a.templates.live.structured, a.templates.live.simple],
  );
  t.same(
    all.body.data.map((x: { mode: string }) => x.mode),
    ['legacy', 'structured', 'simple'],
  );
  t.same(
    { hasMore: all.body.hasMore, nextCursor: all.body.nextCursor },
    { hasMore: false, nextCursor: null },
  );

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof call>> = await call(
      t,
      server,
      'GET',
      `/templates?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      { key: a.live },
    );
    t.ok(page.body.data.length <= 2);
    seen.push(...page.body.data.map((x: { id: string }) => x.id));
    cursor = page.body.nextCursor;
  } while (cursor);
  t.same(
    seen,
    all.body.data.map((x: { id: string }) => x.id),
    'pages of 2 walk the same list',
  );

  for (const [query, message] of [
    ['limit=0', /limit must be a whole number 1-100, got "0"/],
    ['limit=101', /limit must be a whole number 1-100, got "101"/],
    ['limit=abc', /got "abc"/],
    ['limit=1&limit=2', /must appear once/],
    ['cursor=zzz', /cursor must be a nextCursor/],
    ['limt=5', /query parameter "limt" is not accepted \(accepted: limit, cursor\)/],
  ] as const) {
    const r = await call(t, server, 'GET', `/templates?${query}`, { key: a.live });
    t.equal(r.status, 400, query);
    t.match(r.body.error.message, message, query);
  }
});

t.test('GET /templates/{id}: builder model for v2, settings and fontIds for legacy v1', async (t) => {
  const simple = await call(t, server, 'GET', `/templates/${a.templates.live.simple}`, { key: a.live });
  t.match(simple.body, {
    id: a.templates.live.simple,
    version: 2,
    mode: 'simple',
    revision: 1,
    style: { fontId: bundledFontId('caveat'), fontSize: 20 },
  });
  t.notOk('blocks' in simple.body);
  const structured = await call(t, server, 'GET', `/templates/${a.templates.live.structured}`, {
    key: a.live,
  });
  t.equal(structured.body.mode, 'structured');
  t.ok(Array.isArray(structured.body.blocks) && structured.body.blocks.length > 0, 'blocks');
  const legacy = await call(t, server, 'GET', `/templates/${a.templates.live.legacy}`, { key: a.live });
  t.equal(legacy.body.version, 1);
  t.ok(legacy.body.settings && Array.isArray(legacy.body.fontIds), 'settings and fontIds');
  t.notOk('style' in legacy.body);
  const q = await call(t, server, 'GET', `/templates/${a.templates.live.simple}?x=1`, { key: a.live });
  t.equal(q.status, 400);
  t.match(q.body.error.message, /this endpoint accepts none/);

  const json = JSON.parse(
    readFileSync(new URL('../../src/app/demo/letter.template.json', import.meta.url), 'utf8'),
  );
  await server.ctx.store.templates.update(
    { accountId: a.accountId, mode: 'live' },
    a.templates.live.simple,
    { ...json, style: { ...simple.body.style, fontSize: 31 } },
    new Date(),
  );
  const after = await call(t, server, 'GET', `/templates/${a.templates.live.simple}`, { key: a.live });
  t.match(after.body, { revision: 2, style: { fontSize: 31 } }, 'an edit is seen at once');
});

t.test('GET /fonts: shared and personal metadata, never files', async (t) => {
  const caveat = readFileSync(
    new URL(import.meta.resolve('@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf')),
  );
  const personal = await addFont(server.ctx, {
    bytes: caveat,
    name: 'My hand',
    account: a.accountId,
    premium: false,
  });
  const r = await call(t, server, 'GET', '/fonts?limit=100', { key: a.live });
  const ids = r.body.data.map((f: { id: string }) => f.id);
  t.ok(ids.includes(bundledFontId('caveat')), 'a shared font');
  t.ok(ids.includes(personal.id), 'the personal font');
  t.equal(r.body.data[0].id, personal.id, 'newest first');
  t.match(r.body.data[0], { personal: true, name: 'My hand', family: 'Caveat', usable: true });
  const text = JSON.stringify(r.body);
  for (const leak of ['location', 'sha256', '.ttf', 'http', 'glyphs', 'path', 'bytes'])
    t.notOk(text.includes(leak), `no ${leak}`);
  const other = await call(t, server, 'GET', '/fonts?limit=100', { key: b.live });
  t.notOk(
    other.body.data.some((f: { id: string }) => f.id === personal.id),
    "another account's personal font is invisible",
  );
  const premium = other.body.data.find((f: { id: string }) => f.id === bundledFontId('homemade-apple'));
  t.match(
    premium,
    { premium: true, usable: false },
    'a premium font is listed but not usable without the plan',
  );
});

t.test('GET /usage: fields, range rules, the key mode, and requests counted', async (t) => {
  const fresh = await server.tenant();
  for (let i = 0; i < 3; i++) await call(t, server, 'GET', '/templates', { key: fresh.live });
  await call(t, server, 'GET', '/nowhere', { key: fresh.live });
  const r = await call(t, server, 'GET', '/usage', { key: fresh.live });
  t.equal(r.status, 200);
  const today = new Date();
  const first = `${today.toISOString().slice(0, 8)}01`;
  t.equal(r.body.period.from, first, 'default from: the first of this month');
  t.equal(
    r.body.period.to,
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1))
      .toISOString()
      .slice(0, 10),
    'default to: tomorrow (today inclusive)',
  );
  t.equal(r.body.requests, 5, 'every request with a valid key, failed ones too, this one included');
  t.match(r.body.balance, {
    mode: 'live',
    subscription: { plan: 'pro', periodDays: 30 },
    usage: { pagesToday: 0, pagesThisPeriod: 0 },
  });
  for (const f of [
    'generations',
    'successfulGenerations',
    'failedGenerations',
    'cancelledGenerations',
    'pages',
    'creditsSpent',
    'renders',
    'svgRenders',
    'pngRenders',
  ]) {
    t.equal(r.body[f], 0, f);
  }
  const test = await call(t, server, 'GET', '/usage', { key: fresh.test });
  t.equal(test.body.requests, 1, 'test usage is separate');
  t.equal(test.body.balance.extraSheets, 100, 'the test balance');
  const past = await call(t, server, 'GET', '/usage?from=2025-01-01&to=2025-02-01', { key: fresh.live });
  t.match(past.body, { period: { from: '2025-01-01', to: '2025-02-01', days: 31 }, requests: 0 });

  const before = (await call(t, server, 'GET', '/usage', { key: fresh.live })).body.requests;
  for (const [query, message] of [
    ['from=2025-02-30', /from must be a date that exists on the calendar, got "2025-02-30"/],
    ['from=2025-01-01&to=2026-01-03', /1-366 days, got 367/],
    ['from=2025-03-01&to=2025-02-01', /to must be after from/],
    ['from=2025-03-01&to=2025-03-01', /to must be after from/],
    ['from=2025-01-01T00:00:00Z', /from must be a date YYYY-MM-DD \(UTC\), got "2025-01-01T00:00:00Z"/],
    ['to=tomorrow', /to must be a date YYYY-MM-DD/],
    ['month=2025-01', /"month" is not accepted \(accepted: from, to\)/],
  ] as const) {
    const e = await call(t, server, 'GET', `/usage?${query}`, { key: fresh.live });
    t.equal(e.status, 400, query);
    t.equal(e.body.error.code, 'INVALID_REQUEST', query);
    t.match(e.body.error.message, message, query);
  }
  const ok366 = await call(t, server, 'GET', '/usage?from=2024-01-01&to=2025-01-01', { key: fresh.live });
  t.equal(ok366.body.period.days, 366, 'exactly 366 days (a leap year) is allowed');
  const after = (await call(t, server, 'GET', '/usage', { key: fresh.live })).body.requests;
  t.equal(after, before + 7 + 1 + 1, 'refused requests count too, and nothing else changed');
});

t.test('POST /assets: PNG and JPEG in, id/type/width/height out, private', async (t) => {
  const up = (key: string, raw: Uint8Array, type = 'image/png') =>
    call(t, server, 'POST', '/assets', { key, raw, headers: { 'content-type': type } });
  const p = await up(a.live, png(120, 80));
  t.equal(p.status, 201);
  t.match(p.body, { id: /^asset_/, type: 'image/png', width: 120, height: 80 });
  const j = await up(a.live, jpeg, 'image/jpeg');
  t.match(j.body, { type: 'image/jpeg', width: 64, height: 48 });
  t.match(
    (await up(a.live, progressiveJpeg, 'image/jpeg')).body,
    { width: 64, height: 48 },
    'progressive JPEG',
  );
  t.equal(await server.ctx.store.assets.exists({ accountId: a.accountId, mode: 'live' }, p.body.id), true);
  t.equal(
    await server.ctx.store.assets.exists({ accountId: a.accountId, mode: 'test' }, p.body.id),
    false,
    'not in the other mode',
  );
  t.equal(
    await server.ctx.store.assets.exists({ accountId: b.accountId, mode: 'live' }, p.body.id),
    false,
    'not in another account',
  );
  t.ok(await server.ctx.blobs.exists(`assets/${a.accountId}/${p.body.id}`), 'the bytes are stored');
  // The asset can be named by a template of the same account and mode only.
  const tplJson = (asset: string) =>
    JSON.stringify({
      version: 2,
      name: 'bg',
      mode: 'simple',
      style: { fontId: bundledFontId('caveat'), background: { assetId: asset } },
    });
  await t.resolves(
    importTemplate(server.ctx, { account: a.accountId, mode: 'live', json: tplJson(p.body.id) }),
  );
  await t.rejects(
    importTemplate(server.ctx, { account: b.accountId, mode: 'live', json: tplJson(p.body.id) }),
    /asset/,
  );
});

t.test('POST /assets: legal images of every kind are taken', async (t) => {
  const cases: [string, Uint8Array, string][] = [
    ['a palette PNG', palettePng([0, 1, 0, 1, 1, 0, 1, 0], 2), 'image/png'],
    [
      'a 1-bit grey PNG',
      pngOf({ width: 8, height: 2, depth: 1, colour: 0, raw: Buffer.from([0, 0xaa, 0, 0x55]) }),
      'image/png',
    ],
    [
      'a palette PNG file',
      readFileSync(new URL('../fixtures/palette-40x24.png', import.meta.url)),
      'image/png',
    ],
    [
      'an interlaced 16-bit PNG file',
      readFileSync(new URL('../fixtures/interlaced16-40x24.png', import.meta.url)),
      'image/png',
    ],
    ['a JPEG with fill bytes before its markers', jpegWithFillBytes(), 'image/jpeg'],
    ['a progressive JPEG of 100 scans', jpegWithScans(100), 'image/jpeg'],
  ];
  for (const [name, raw, type] of cases) {
    const r = await call(t, server, 'POST', '/assets', {
      key: a.test,
      raw,
      headers: { 'content-type': type },
    });
    t.equal(r.status, 201, `${name}: ${r.body.error?.message ?? 'stored'}`);
  }
  // The fill bytes' JPEG goes into a PDF as it is.
  const fill = await call(t, server, 'POST', '/assets', {
    key: a.test,
    raw: jpegWithFillBytes(),
    headers: { 'content-type': 'image/jpeg' },
  });
  const post = await call(t, server, 'POST', '/generations', {
    key: a.test,
    body: { templateId: a.templates.test.legacy, content: [{ type: 'image', assetId: fill.body.id }] },
  });
  t.equal(post.status, 202);
  const job = await jobFinished(t, server, a.test, post.body.id);
  t.equal(job.status, 'completed', `a PDF with it: ${JSON.stringify(job.error)}`);
});

t.test('POST /assets: refused uploads change nothing', async (t) => {
  const tenant = { accountId: b.accountId, mode: 'live' as const };
  const before = await server.ctx.store.assets.usage(b.accountId);
  const up = (raw: Uint8Array, type: string | undefined) =>
    call(t, server, 'POST', '/assets', { key: b.live, raw, headers: type ? { 'content-type': type } : {} });
  const cases: [string, Uint8Array, string | undefined, number, RegExp][] = [
    [
      '4097 px wide',
      png(1, 1, { declared: { width: 4097, height: 1 } }),
      'image/png',
      400,
      /side must be at most 4096 px, got 4097 x 1 px/,
    ],
    [
      '9 MP',
      png(1, 1, { declared: { width: 3000, height: 3000 } }),
      'image/png',
      400,
      /at most 8000000 pixels, got 9000000/,
    ],
    [
      'a 1 KB zlib bomb with an honest header',
      zlibBomb(),
      'image/png',
      400,
      /inflate past the 784 bytes the header declares/,
    ],
    [
      'a 1 KB zlib bomb claiming 50,000 px',
      giantBomb(),
      'image/png',
      400,
      /side must be at most 4096 px, got 50000 x 50000/,
    ],
    [
      'JPEG bytes labelled image/png',
      jpeg,
      'image/png',
      400,
      /Content-Type says image\/png but the bytes are a JPEG image/,
    ],
    ['WebP', webp, 'image/png', 400, /a WebP image/],
    ['GIF', gif, 'image/png', 400, /a GIF image/],
    ['SVG', svg, 'image/png', 400, /an SVG image/],
    [
      'SVG labelled as such',
      svg,
      'image/svg+xml',
      400,
      /Content-Type must be image\/png or image\/jpeg, got "image\/svg\+xml"/,
    ],
    [
      'no Content-Type',
      png(4, 4),
      undefined,
      400,
      /Content-Type must be image\/png or image\/jpeg, got nothing/,
    ],
    ['zero bytes', new Uint8Array(0), 'image/png', 400, /got 0 bytes/],
    ['a truncated PNG', png(50, 50).subarray(0, 100), 'image/png', 400, /the PNG is truncated/],
    ['a truncated JPEG', jpeg.subarray(0, jpeg.length - 40), 'image/jpeg', 400, /the JPEG is truncated/],
    [
      'a PNG with a broken CRC',
      (() => {
        const x = Buffer.from(png(8, 8));
        x[40] = (x[40] ?? 0) ^ 0xff;
        return x;
      })(),
      'image/png',
      400,
      /fails its CRC|corrupt/,
    ],
    // PNGs that do not decode to a well-defined image (ISO/IEC 15948), refused before storing.
    [
      'a palette image without a palette',
      pngOf({ width: 4, height: 2, depth: 8, colour: 3, raw: Buffer.alloc(10) }),
      'image/png',
      400,
      /a palette image without a palette \(PLTE\)/,
    ],
    [
      'a palette index past the palette',
      palettePng([0, 1, 0, 1, 0, 1, 0, 7], 2),
      'image/png',
      400,
      /does not decode: index 7 not in palette/,
    ],
    [
      'bit depth 4 for RGB',
      pngOf({ width: 4, height: 2, depth: 4, colour: 2, raw: Buffer.alloc(14) }),
      'image/png',
      400,
      /bit depth 4 for colour type 2, which allows 8, 16/,
    ],
    [
      'bit depth 16 for a palette',
      pngOf({
        width: 4,
        height: 2,
        depth: 16,
        colour: 3,
        raw: Buffer.alloc(18),
        before: [['PLTE', Buffer.alloc(6)]],
      }),
      'image/png',
      400,
      /bit depth 16 for colour type 3, which allows 1, 2, 4, 8/,
    ],
    [
      'an unknown filter byte',
      palettePng([0, 1, 0, 1, 0, 1, 0, 1], 2, 7),
      'image/png',
      400,
      /does not decode: Unrecognised filter type - 7/,
    ],
    [
      'compression method 1',
      pngOf({ width: 4, height: 2, depth: 8, colour: 0, raw: Buffer.alloc(10), compression: 1 }),
      'image/png',
      400,
      /compression method 1; only 0 exists/,
    ],
    [
      'filter method 1',
      pngOf({ width: 4, height: 2, depth: 8, colour: 0, raw: Buffer.alloc(10), filterMethod: 1 }),
      'image/png',
      400,
      /filter method 1; only 0 exists/,
    ],
    [
      'interlace method 2',
      pngOf({ width: 4, height: 2, depth: 8, colour: 0, raw: Buffer.alloc(10), interlace: 2 }),
      'image/png',
      400,
      /interlace method 2; only 0 and 1 exist/,
    ],
    [
      'a palette larger than the depth indexes',
      pngOf({
        width: 4,
        height: 2,
        depth: 1,
        colour: 3,
        raw: Buffer.alloc(4),
        before: [['PLTE', Buffer.alloc(9)]],
      }),
      'image/png',
      400,
      /palette must hold 1 to 2 entries of 3 bytes, got 9 bytes/,
    ],
    [
      'a grey image with a palette',
      pngOf({
        width: 4,
        height: 2,
        depth: 8,
        colour: 0,
        raw: Buffer.alloc(10),
        before: [['PLTE', Buffer.alloc(6)]],
      }),
      'image/png',
      400,
      /a grey image \(colour type 0\) carries a palette/,
    ],
    ['a progressive JPEG of 101 scans', jpegWithScans(101), 'image/jpeg', 400, /at most 100 scans/],
    [
      'JPEG data that does not decode',
      (() => {
        const x = Buffer.from(jpeg);
        const sos = x.indexOf(Buffer.from([0xff, 0xda]));
        // Entropy-coded data of stuffed 0xFF bytes only: no valid Huffman sequence.
        for (let i = sos + 30; i + 1 < x.length - 2; i += 2) x.set([0xff, 0x00], i);
        return x;
      })(),
      'image/jpeg',
      400,
      /the JPEG does not decode/,
    ],
    [
      'over 5 MiB',
      Buffer.concat([png(8, 8), Buffer.alloc(5 * 1024 * 1024)]),
      'image/png',
      413,
      /at most 5242880 bytes, got 524\d{4} \(Content-Length\)/,
    ],
  ];
  for (const [name, raw, type, status, message] of cases) {
    const r = await up(raw, type);
    t.equal(r.status, status, name);
    t.equal(r.body.error?.code, 'INVALID_REQUEST', name);
    t.match(r.body.error?.message, message, name);
  }
  t.same(await server.ctx.store.assets.usage(b.accountId), before, 'no asset recorded');
  t.equal(await server.ctx.store.assets.exists(tenant, 'asset_0000000000000000000000'), false);
});

t.test('POST /assets: 20 racing uploads at the quota edge never pass it', async (t) => {
  const edge = await startTestServer(t, { assetsMaxCount: 5, assetsMaxTotalBytes: 1024 * 1024 });
  const c = await edge.tenant();
  const image = png(64, 64);
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      call(t, edge, 'POST', '/assets', {
        key: i % 2 ? c.live : c.test,
        raw: image,
        headers: { 'content-type': 'image/png' },
      }),
    ),
  );
  const statuses = results.map((r) => r.status);
  t.equal(statuses.filter((s) => s === 201).length, 5, 'exactly the quota (both modes count)');
  t.equal(statuses.filter((s) => s === 400).length, 15);
  t.match(results.find((r) => r.status === 400)?.body.error.message, /at most 5 images, it holds 5 already/);
  t.same(await edge.ctx.store.assets.usage(c.accountId), { count: 5, bytes: 5 * image.length });
  const { readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  t.equal(
    readdirSync(join(edge.dir, 'blobs', 'assets', c.accountId)).length,
    5,
    'refused uploads left no blob behind',
  );

  const bytesEdge = await startTestServer(t, { assetsMaxTotalBytes: 3 * image.length + 10 });
  const d = await bytesEdge.tenant();
  const r2 = await Promise.all(
    Array.from({ length: 20 }, () =>
      call(t, bytesEdge, 'POST', '/assets', {
        key: d.live,
        raw: image,
        headers: { 'content-type': 'image/png' },
      }),
    ),
  );
  t.equal(r2.filter((r) => r.status === 201).length, 3, 'the byte quota holds too');
  t.match(r2.find((r) => r.status === 400)?.body.error.message, /images may total at most/);
});
