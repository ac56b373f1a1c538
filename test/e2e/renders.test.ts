// POST /renders over a real server: the image as the body, every limit at its edge, the quotas,
// the render modes and their error codes, hostile text.
import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { PNG } from 'pngjs';
import t, { type Test } from 'tap';
import { addFont, importTemplate, topUp } from '../../src/app/admin.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { call, setExtraBalance, startTestServer, type TestServer } from '../helpers/server.ts';

const server = await startTestServer(t, { rendersPerMinute: 10_000, rendersPerDay: 10_000 });
const a = await server.tenant();
const render = (s: Pick<TestServer, 'base'>, key: string, body: Record<string, unknown>) =>
  call(t, s, 'POST', '/renders', { key, body });
const CAPTION = 'A few lines of handwriting\nfor a caption under a photo.';

/** An SVG render of the caption by `key` (SVG or a pen plotter's strokes): 200, its type, its exact length. */
async function svgOf(t: Test, key: string, templateId: string, format: 'svg' | 'strokes') {
  const r = await render(server, key, { templateId, text: CAPTION, format });
  t.equal(r.status, 200);
  t.equal(r.headers.get('content-type'), 'image/svg+xml; charset=utf-8');
  t.equal(Number(r.headers.get('content-length')), Buffer.byteLength(r.body));
  t.doesNotThrow(() => new Resvg(r.body), 'well-formed');
  return r.body as string;
}

t.test('SVG and PNG: 200 with the image as the body, exact length, one request id', async (t) => {
  const svg = await svgOf(t, a.live, a.templates.live.simple, 'svg');
  t.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  t.match(svg, /<path id="g0" /, 'letter outlines');
  t.notMatch(svg, /<text|@font-face|font-family/, 'no text elements, no web fonts');

  const res = await fetch(`${server.base}/api/v1/renders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${a.live}`, 'content-type': 'application/json' },
    body: JSON.stringify({ templateId: a.templates.live.simple, text: CAPTION, format: 'png' }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  t.equal(Number(res.headers.get('content-length')), bytes.length);
  t.equal(res.headers.get('x-request-id')?.split(',').length, 1);
  const png = PNG.sync.read(bytes);
  t.same([png.width, png.height], [1191, 1684], 'A4 at 144 DPI');

  const big = await render(server, a.live, {
    templateId: a.templates.live.simple,
    text: 'Big',
    format: 'svg',
    fontSize: 96,
  });
  t.match(big.body, /matrix\(0\.0\d+ 0 0 -0\.0\d+ 0 0\)/, 'fontSize scales the outlines');
  const usage = await call(t, server, 'GET', '/usage', { key: a.live });
  t.match(usage.body, { renders: 3, svgRenders: 2, pngRenders: 1 }, 'counted in usage');
});

t.test("strokes (extension): a pen plotter's SVG, counted and limited as an SVG render", async (t) => {
  const b = await server.tenant();
  const body = await svgOf(t, b.live, b.templates.live.simple, 'strokes');
  t.match(body, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="210mm" height="297mm"/);
  t.notMatch(body, /fill="#|<use|<text|<image/, 'no fills, no paper, no text layer');
  const paths = [...body.matchAll(/<path d="(M[^"]+)"\/>/g)];
  t.ok(paths.length > 20, `one path per pen movement (${paths.length})`);
  const same = await render(server, b.live, {
    templateId: b.templates.live.simple,
    text: CAPTION,
    format: 'strokes',
  });
  t.equal(same.body, body, 'the same request draws the same strokes');
  t.equal(Number(same.headers.get('x-pen-downs')), paths.length, 'X-Pen-Downs: the paths, one a pen-down');
  // The pen's travel up: from the end of each path to the start of the next, on the page in mm.
  let up = 0;
  for (let i = 1; i < paths.length; i++) {
    const [a, z] = [
      paths[i - 1]![1]!.match(/-?[\d.]+/g)!.map(Number),
      paths[i]![1]!.match(/-?[\d.]+/g)!.map(Number),
    ];
    up += Math.hypot(z[0]! - a.at(-2)!, z[1]! - a.at(-1)!);
  }
  t.ok(
    Math.abs(Number(same.headers.get('x-pen-up-mm')) - (up * 25.4) / 72) < 0.1,
    `X-Pen-Up-Mm: the pen's travel up, ${same.headers.get('x-pen-up-mm')} mm`,
  );
  const long = await render(server, b.live, {
    templateId: b.templates.live.simple,
    text: 'line\n'.repeat(21),
    format: 'strokes',
  });
  t.equal(long.status, 400, 'the line limit holds');
  t.match(long.body, { error: { code: 'INVALID_REQUEST', field: 'text' } });
  const bad = await render(server, b.live, {
    templateId: b.templates.live.simple,
    text: 'Hi',
    format: 'gif',
  });
  t.match(bad.body, {
    error: { code: 'INVALID_REQUEST', field: 'format', message: /svg, png or strokes.*gif/ },
  });
  const usage = await call(t, server, 'GET', '/usage', { key: b.live });
  t.match(
    usage.body,
    { renders: 2, svgRenders: 2, pngRenders: 0 },
    'the two drawn are counted as SVG renders',
  );
});

t.test('a well-prefixed template id of another length is simply not found', async (t) => {
  const r = await render(server, a.live, {
    templateId: 'tpl_nope0000000000000000',
    text: 'Hi',
    format: 'svg',
  });
  t.equal(r.status, 404);
  t.equal(r.body.error?.code, 'TEMPLATE_NOT_FOUND');
  const get = await call(t, server, 'GET', '/templates/tpl_nope0000000000000000', { key: a.live });
  t.equal(get.status, 404, 'as GET /templates/{id} answers');
  const other = await render(server, a.live, { templateId: 'nope', text: 'Hi', format: 'svg' });
  t.equal(other.status, 400, 'a string that is no template id at all stays a 400');
});

t.test('limits at their edges: accepted at the limit, 400 one past it, never cropped', async (t) => {
  const tpl = a.templates.live.simple;
  const ok = async (name: string, body: Record<string, unknown>) => {
    const r = await render(server, a.live, { templateId: tpl, format: 'svg', ...body });
    t.equal(r.status, 200, `${name}: accepted`);
  };
  const no = async (name: string, body: Record<string, unknown>, message: RegExp) => {
    const r = await render(server, a.live, { templateId: tpl, format: 'svg', ...body });
    t.equal(r.status, 400, `${name}: refused`);
    t.equal(r.body.error?.code, 'INVALID_REQUEST');
    t.match(r.body.error?.message, message, `${name}: the message names the limit`);
  };
  const words = (n: number) => 'handwriting on paper '.repeat(Math.ceil(n / 21)).slice(0, n);
  await ok('3,000 UTF-16 units', { text: words(3000), fontSize: 6 });
  await no(
    '3,001 UTF-16 units',
    { text: words(3001), fontSize: 6 },
    /text must be 1-3,000 UTF-16 characters, got 3,001/,
  );
  const emoji = await render(server, a.live, {
    templateId: tpl,
    format: 'svg',
    text: '😀'.repeat(1500),
    fontSize: 6,
  });
  t.notMatch(
    emoji.body.error?.message ?? '',
    /UTF-16/,
    '1,500 emoji (3,000 units) pass the length check (no hand draws emoji)',
  );
  await no('1,501 emoji (3,002 units)', { text: '😀'.repeat(1501), fontSize: 6 }, /got 3,002/);
  await ok('20 lines', { text: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') });
  await no(
    '21 lines',
    { text: Array.from({ length: 21 }, (_, i) => `line ${i + 1}`).join('\n') },
    /21 lines after wrapping, the most allowed is 20/,
  );
  await no(
    '21 lines by wrapping',
    { text: words(2400), fontSize: 20 },
    /lines after wrapping, the most allowed is 20/,
  );
  await ok('fontSize 6', { text: 'small', fontSize: 6 });
  await ok('fontSize 96', { text: 'big', fontSize: 96 });
  await no('fontSize 5.9', { text: 'x', fontSize: 5.9 }, /fontSize must be 6-96 pt, got 5.9/);
  await no('fontSize 96.1', { text: 'x', fontSize: 96.1 }, /fontSize must be 6-96 pt, got 96.1/);
  await no(
    'more than one page',
    { text: Array.from({ length: 14 }, () => 'x').join('\n'), fontSize: 96 },
    /does not fit on one page/,
  );
  await no('no format', { text: 'x', format: 'gif' }, /format must be svg, png or strokes, got "gif"/);
  await no(
    'a style override',
    { text: 'x', overrides: {} },
    /unknown field overrides.*fontSize is the only override/,
  );
  await no('empty text', { text: '' }, /text must be 1-3,000/);
  const a3 = JSON.parse(
    readFileSync(new URL('../../src/app/demo/letter.template.json', import.meta.url), 'utf8'),
  );
  a3.style.pageSize = 'A3';
  const big = await importTemplate(server.ctx, {
    account: a.accountId,
    mode: 'live',
    json: JSON.stringify(a3),
    source: 'a3',
  });
  const tooWide = await render(server, a.live, { templateId: big.id, text: 'x', format: 'png' });
  t.equal(tooWide.status, 400);
  t.match(
    tooWide.body.error.message,
    /1684 x 2381 px at 144 DPI; a rendered image may be at most 2048 px on a side/,
    'A3 at 144 DPI is refused before rasterising',
  );
  const svgOfA3 = await render(server, a.live, { templateId: big.id, text: 'x', format: 'svg' });
  t.equal(svgOfA3.status, 200, 'an SVG has no pixels to limit');
  for (const kind of ['structured', 'legacy'] as const) {
    const r = await render(server, a.live, { templateId: a.templates.live[kind], text: 'x', format: 'svg' });
    t.equal(r.status, 400);
    t.match(r.body.error.message, /renders take simple-text templates only/);
  }
});

t.test('hostile text gives well-formed SVG or a clean 400', async (t) => {
  for (const text of [
    '<script>alert(1)</script>',
    ']]> & </svg>',
    'a & b < c > d " e \' f',
    'سلام عليكم بِسْمِ اللَّهِ',
    'e\u0301\u0302 n\u0303',
  ]) {
    const r = await render(server, a.live, { templateId: a.templates.live.simple, text, format: 'svg' });
    t.equal(r.status, 200, JSON.stringify(text));
    t.notMatch(r.body, /<script|\]\]>|<\/svg>.+/s, 'nothing of the text in the markup');
    t.doesNotThrow(() => new Resvg(r.body), 'well-formed');
  }
  for (const [text, what] of [
    ['nul \u0000 here', 'a control character \\(U\\+0000\\) at position 4'],
    ['lone \ud800 surrogate', 'an unpaired surrogate \\(U\\+D800\\) at position 5'],
    ['bell\u0007', 'a control character'],
  ]) {
    const r = await render(server, a.live, { templateId: a.templates.live.simple, text, format: 'svg' });
    t.equal(r.status, 400, `${JSON.stringify(text)}: refused`);
    t.match(r.body.error.message, new RegExp(`text must be plain text: it holds ${what}`));
  }
  const unknown = await render(server, a.live, {
    templateId: a.templates.live.simple,
    text: '漢字',
    format: 'svg',
  });
  t.equal(unknown.status, 400, 'characters no hand has: 400');
  t.match(unknown.body.error.message, /no bundled font has/);
});

t.test('quotas: 5 a minute, 100 a UTC day, one PNG at a time; failures after admission count', async (t) => {
  const q = await startTestServer(t, { rendersPerMinute: 5, rendersPerDay: 7 });
  const x = await q.tenant();
  const body = { templateId: x.templates.live.simple, text: CAPTION, format: 'svg' };
  const invalidLate = { ...body, text: Array.from({ length: 21 }, () => 'l').join('\n') };
  t.equal((await render(q, x.live, invalidLate)).status, 400, 'a render refused after admission (21 lines)');
  for (let i = 0; i < 4; i++)
    t.equal((await render(q, x.live, body)).status, 200, `render ${i + 2} of the minute`);
  const sixth = await render(q, x.live, body);
  t.equal(sixth.status, 429, 'the 6th in a minute is refused: the failed one counted');
  t.equal(sixth.headers.get('retry-after'), '60');
  t.match(sixth.body.error.message, /at most 5 renders a minute per account/);
  t.equal(sixth.body.error.reason, 'renders-per-minute');
  t.match(sixth.headers.get('ratelimit'), /^"renders-per-minute";r=0;t=\d+, "per-key"/);
  const early = await render(q, x.live, { ...body, fontSize: 2 });
  t.equal(early.status, 400, 'a request refused before admission spends nothing');
  t.equal(
    (await render(q, x.test, { ...body, templateId: x.templates.test.simple })).status,
    429,
    'the limit is per account, whatever the key',
  );

  // The day's limit, on a server whose minute limit is out of the way.
  const d = await startTestServer(t, { rendersPerMinute: 100, rendersPerDay: 3 });
  const y = await d.tenant();
  const dayBody = { templateId: y.templates.live.simple, text: CAPTION, format: 'svg' };
  for (let i = 0; i < 3; i++) t.equal((await render(d, y.live, dayBody)).status, 200);
  const fourth = await render(d, y.live, dayBody);
  t.equal(fourth.status, 429);
  // Spec §7/§8: every 429 carries Retry-After: 60; the day's true reset is in the RateLimit fields.
  t.equal(fourth.headers.get('retry-after'), '60', 'Retry-After: 60, as every 429');
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const day = /"renders-per-day";r=0;t=(\d+)/.exec(fourth.headers.get('ratelimit') ?? '');
  t.ok(
    day && Math.abs(Number(day[1]) - (midnight - now.getTime()) / 1000) < 5,
    `RateLimit says the day's renders come back at 00:00 UTC (${fourth.headers.get('ratelimit')})`,
  );
  t.match(
    fourth.headers.get('ratelimit'),
    /^"renders-per-day";r=0;t=\d+, "per-key";r=\d+;t=\d+$/,
    "the policy that refused first, then the key's own",
  );
  t.match(
    fourth.headers.get('ratelimit-policy'),
    /^"renders-per-day";q=3;w=86400, "per-key";q=\d+;w=60$/,
    'and both policies named',
  );
  t.equal(fourth.body.error.reason, 'renders-per-day', 'the reason names the day quota');
  t.match(
    fourth.body.error.message,
    /at most 3 renders a UTC day per account; the count starts again at 00:00 UTC/,
  );

  const h = await startTestServer(t, { rendersPerMinute: 100, rendersPerDay: 100 });
  const z = await h.tenant();
  const pngBody = {
    templateId: z.templates.live.simple,
    text: 'x '.repeat(1400),
    format: 'png',
    fontSize: 6,
  };
  const both = await Promise.all([
    render(h, z.live, pngBody),
    render(h, z.live, pngBody),
    render(h, z.live, pngBody),
  ]);
  const statuses = both.map((r) => r.status).sort();
  t.ok(statuses.includes(200) && statuses.includes(429), `one PNG at a time per account (${statuses})`);
  const busy = both.find((r) => r.status === 429)!;
  t.match(busy.body.error.message, /one PNG render at a time per account/);
  t.equal(busy.body.error.reason, 'render-in-progress');
  const svgMeanwhile = await Promise.all([
    render(h, z.live, { ...pngBody, format: 'svg' }),
    render(h, z.live, { ...pngBody, format: 'svg' }),
  ]);
  t.same(
    svgMeanwhile.map((r) => r.status),
    [200, 200],
    'SVG renders are not heavy',
  );
});

t.test(
  'render modes: subscription needs render access; credits charge sheets; disabled is 503',
  async (t) => {
    const free = await server.tenant({ plan: 'none' });
    const denied = await render(server, free.live, {
      templateId: free.templates.live.simple,
      text: 'x',
      format: 'svg',
    });
    t.equal(denied.status, 403);
    t.match(denied.body.error, {
      code: 'RENDER_ACCESS_DENIED',
      message: /the none plan does not include renders/,
    });

    const credits = await startTestServer(t, { renderMode: 'credits', rendersPerMinute: 100 });
    const c = await credits.tenant({ plan: 'none' });
    const broke = await render(credits, c.live, {
      templateId: c.templates.live.simple,
      text: 'x',
      format: 'svg',
    });
    t.equal(broke.status, 402, 'credits mode without sheets: 402');
    await topUp(credits.ctx, { account: c.accountId, sheets: 50, mode: 'live' });
    const paid = await render(credits, c.live, {
      templateId: c.templates.live.simple,
      text: 'x',
      format: 'svg',
    });
    t.equal(paid.status, 200, 'credits mode renders for a plan without render access');
    const usage = await call(t, credits, 'GET', '/usage', { key: c.live });
    t.equal(usage.body.balance.extraSheets, 48.5, 'an A4 page charged 1.5 sheets');
    t.match(usage.body, { renders: 1, creditsSpent: 1.5 });
    const rows = await credits.ctx.store.db.kysely
      .selectFrom('ledger')
      .selectAll()
      .where('account_id', '=', c.accountId)
      .where('kind', '=', 'render')
      .execute();
    t.equal(rows.length, 1);
    t.equal(rows[0]!.job_id, paid.requestId, 'the charge carries the request id');
    await setExtraBalance(credits, c.accountId, 'live', 1000);
    const short = await render(credits, c.live, {
      templateId: c.templates.live.simple,
      text: 'x',
      format: 'svg',
    });
    t.equal(short.status, 402, 'not enough for the page: no image');
    t.match(short.body.error.message, /needs 1.5 sheets, 1 available/);
    t.equal(
      (await call(t, credits, 'GET', '/usage', { key: c.live })).body.renders,
      1,
      'a refused render is not counted',
    );

    const off = await startTestServer(t, { renderMode: 'disabled' });
    const o = await off.tenant();
    const r = await render(off, o.live, { templateId: o.templates.live.simple, text: 'x', format: 'svg' });
    t.equal(r.status, 503);
    t.equal(r.body.error.code, 'RENDER_DISABLED');
  },
);

t.test(
  'fonts: premium without an eligible plan 403, a font that is gone 404, a broken one 500',
  async (t) => {
    const credits = await startTestServer(t, { renderMode: 'credits' });
    const c = await credits.tenant({ plan: 'none' });
    await topUp(credits.ctx, { account: c.accountId, sheets: 50, mode: 'live' });
    const model = JSON.parse(
      readFileSync(new URL('../../src/app/demo/letter.template.json', import.meta.url), 'utf8'),
    );
    const withFont = async (fontId: string) =>
      (
        await importTemplate(credits.ctx, {
          account: c.accountId,
          mode: 'live',
          json: JSON.stringify({ ...model, style: { ...model.style, fontId } }),
        })
      ).id;
    const premium = await render(credits, c.live, {
      templateId: await withFont(bundledFontId('dancing-script')),
      text: 'x',
      format: 'svg',
    });
    t.equal(premium.status, 403);
    t.equal(premium.body.error.code, 'FONT_ACCESS_DENIED');

    const bytes = readFileSync(
      new URL('../../node_modules/@expo-google-fonts/kalam/300Light/Kalam_300Light.ttf', import.meta.url),
    );
    const mine = await addFont(credits.ctx, { bytes, name: 'My hand', account: c.accountId, premium: false });
    const tpl = await withFont(mine.id);
    const works = await render(credits, c.live, { templateId: tpl, text: 'In my own hand', format: 'svg' });
    t.equal(works.status, 200, 'a personal font renders');
    await credits.ctx.blobs.delete(mine.location);
    const broken = await render(credits, c.live, { templateId: tpl, text: 'x', format: 'svg' });
    t.equal(broken.status, 500);
    t.equal(broken.body.error.code, 'RENDER_FAILED');
    await credits.ctx.store.db.kysely.deleteFrom('fonts').where('id', '=', mine.id).execute();
    const gone = await render(credits, c.live, { templateId: tpl, text: 'x', format: 'svg' });
    t.equal(gone.status, 404);
    t.equal(gone.body.error.code, 'FONT_NOT_FOUND');
  },
);

t.test(
  'the output and time limits: an image over the size limit or a render over the time limit is a 400',
  async (t) => {
    // The limits lowered so that a caption reaches them: 8 MB and 15 s by default.
    const small = await startTestServer(t, { renderOutputMaxBytes: 20_000, rendersPerMinute: 100 });
    const s = await small.tenant();
    const big = await render(small, s.live, {
      templateId: s.templates.live.simple,
      text: CAPTION,
      format: 'svg',
    });
    t.equal(big.status, 400);
    t.match(big.body.error.message, /the image would be \d+ bytes, the most allowed is 20000/);
    const slow = await startTestServer(t, { renderSyncTimeoutMs: 100, rendersPerMinute: 100 });
    const w = await slow.tenant();
    const late = await render(slow, w.live, {
      templateId: w.templates.live.simple,
      text: 'x '.repeat(1400),
      format: 'png',
      fontSize: 6,
    });
    t.equal(late.status, 400);
    t.match(late.body.error.message, /rendering took longer than 0.1 s and was stopped/);
    t.equal(
      (
        await render(slow, w.live, {
          templateId: w.templates.live.simple,
          text: 'x',
          format: 'png',
          fontSize: 6,
        })
      ).status,
      400,
      'the next render is answered too (a fresh worker, still over 0.1 s)',
    );
  },
);
