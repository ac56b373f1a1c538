// Structured templates (data) and legacy Document v1 templates (content) over a real server:
// jobs and previews complete with every block laid out, bad values are refused with the field
// named and nothing created, images come from the account's own assets.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { importTemplate } from '../../src/app/admin.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';
import { png } from '../helpers/images.ts';
import { type Answer, call, startTestServer, type TestServer } from '../helpers/server.ts';

const server = await startTestServer(t);
const finished = (a: Answer) => ['completed', 'failed', 'cancelled'].includes(a.body.status);

async function until(t: Test, s: TestServer, key: string, id: string): Promise<Answer> {
  const end = Date.now() + 60_000;
  for (;;) {
    const a = await call(t, s, 'GET', `/generations/${id}`, { key });
    if (finished(a) || Date.now() > end) return a;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function pdfText(
  t: Test,
  s: TestServer,
  key: string,
  id: string,
): Promise<{ text: string; pages: number; file: string }> {
  const res = await fetch(`${s.base}/api/v1/generations/${id}/download`, {
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(res.status, 200);
  const dir = mkdtempSync(join(tmpdir(), 'scriptorium-structured-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'out.pdf');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
  execFileSync('qpdf', ['--check', file], { stdio: 'ignore' });
  return { text, pages, file };
}

async function upload(t: Test, key: string, width = 120, height = 80): Promise<string> {
  const up = await call(t, server, 'POST', '/assets', {
    key,
    raw: png(width, height),
    headers: { 'content-type': 'image/png' },
  });
  t.equal(up.status, 201, 'asset uploaded');
  return up.body.id;
}

t.test('a structured template with data: every block written, the PDF holds the text', async (t) => {
  const a = await server.tenant();
  const data = {
    title: 'Thermodynamics',
    points: ['Heat flows from hot to cold', 'Work is energy in transit'],
    figures: [
      { item: 'Boiling point', value: '100 °C' },
      { item: 'Absolute zero', value: -273.15 },
    ],
  };
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.structured, data },
  });
  t.equal(post.status, 202, JSON.stringify(post.body));
  const done = await until(t, server, a.live, post.body.id);
  t.equal(done.body.status, 'completed', JSON.stringify(done.body.error));
  t.equal(done.body.pages, 1);
  const { text } = await pdfText(t, server, a.live, post.body.id);
  for (const s of [
    'Thermodynamics',
    'Notes taken in class.',
    'Heat flows from hot to cold',
    'Boiling point',
    '100 °C',
    '-273.15',
    'Item',
    'Value',
  ])
    t.match(text, s, `the PDF holds "${s}"`);
  t.notMatch(text, 'summary', 'an omitted optional field leaves its block out');
});

t.test('INVALID_TEMPLATE_DATA names the field by path; nothing is created', async (t) => {
  const a = await server.tenant();
  const tpl = a.templates.live.structured;
  const ok = { title: 'T', points: ['a'] };
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    [
      'a bad value nested in a table row',
      {
        ...ok,
        figures: [
          { item: 'a', value: 'b' },
          { item: 'c', value: { price: 3 } },
        ],
      },
      'figures/1/value',
      /must be a string or a number, got an object/,
    ],
    [
      'a key the table does not have',
      { ...ok, figures: [{ item: 'a', price: '3' }] },
      'figures/0/price',
      /not a column of this table; its columns are item, value/,
    ],
    [
      'a row that is not an object',
      { ...ok, figures: ['a'] },
      'figures/0',
      /must be an object with the keys item, value/,
    ],
    [
      'a field the template does not define',
      { ...ok, colour: 'red' },
      'colour',
      /not a field of this template; its fields are title, points, figures, summary/,
    ],
    ['a required field missing', { points: ['a'] }, 'title', /is required \(a heading block\), got nothing/],
    [
      'a list item that is not a string',
      { ...ok, points: ['a', 'b', 7] },
      'points/2',
      /must be a string, got 7/,
    ],
    ['a list that is not an array', { ...ok, points: 'a, b' }, 'points', /must be an array of strings/],
    ['too many list items', { ...ok, points: Array(101).fill('x') }, 'points', /at most 100 items, got 101/],
    [
      'text with a control character',
      { ...ok, summary: 'a\u0000b' },
      'summary',
      /plain text: it holds a control character \(U\+0000\) at position 1/,
    ],
  ];
  for (const [what, data, field, message] of cases) {
    const r = await call(t, server, 'POST', '/generations', { key: a.live, body: { templateId: tpl, data } });
    t.equal(r.status, 400, what);
    t.equal(r.body.error.code, 'INVALID_TEMPLATE_DATA', what);
    t.equal(r.body.error.field, field, `${what}: the field`);
    t.match(r.body.error.message, message, `${what}: the message`);
  }
  const list = await call(t, server, 'GET', '/generations', { key: a.live });
  t.equal(list.body.data.length, 0, 'no job was created');
  const wrong = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: tpl, text: 'plain' },
  });
  t.match(wrong.body.error, {
    code: 'INVALID_REQUEST',
    message: 'a structured template takes data, got text',
  });
});

t.test('images: an asset of the same account and key mode, in a column beside text', async (t) => {
  const a = await server.tenant();
  const b = await server.tenant();
  const card = await importTemplate(server.ctx, {
    account: a.accountId,
    mode: 'live',
    source: 'card',
    json: JSON.stringify({
      version: 2,
      name: 'Card',
      mode: 'structured',
      style: { fontId: bundledFontId('caveat'), pageSize: 'A5' },
      blocks: [
        {
          type: 'columns',
          columns: [
            { width: 40, blocks: [{ type: 'image', key: 'photo' }] },
            {
              width: 60,
              blocks: [
                { type: 'heading', key: 'greeting', level: 2 },
                { type: 'text', key: 'message' },
              ],
            },
          ],
        },
      ],
    }),
  });
  const mine = await upload(t, a.live);
  const testMode = await upload(t, a.test);
  const foreign = await upload(t, b.live);
  for (const [what, id] of [
    ['another account', foreign],
    ['the other key mode', testMode],
  ] as const) {
    const r = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: card.id, data: { photo: { assetId: id }, greeting: 'Hi', message: 'x' } },
    });
    t.match(
      r.body.error,
      { code: 'INVALID_TEMPLATE_DATA', field: 'photo/assetId' },
      `an asset of ${what} is refused`,
    );
  }
  const url = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: {
      templateId: card.id,
      data: { photo: { assetId: 'https://example.com/a.png' }, greeting: 'Hi', message: 'x' },
    },
  });
  t.match(url.body.error, { code: 'INVALID_TEMPLATE_DATA', field: 'photo/assetId' }, 'a URL is refused');
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: {
      templateId: card.id,
      data: { photo: { assetId: mine }, greeting: 'Happy birthday!', message: 'With love from all of us.' },
    },
  });
  t.equal(post.status, 202);
  const done = await until(t, server, a.live, post.body.id);
  t.equal(done.body.status, 'completed', JSON.stringify(done.body.error));
  t.equal(done.body.creditsSpent, 1, 'an A5 page is one sheet');
  const { text, file } = await pdfText(t, server, a.live, post.body.id);
  t.match(text, 'Happy birthday!');
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
  t.match(images, /image\s+120\s+80/, 'the PDF embeds the uploaded image at its own resolution');
});

t.test('legacy Document v1 content: every block, billed by its pages', async (t) => {
  const a = await server.tenant();
  const photo = await upload(t, a.live, 200, 100);
  const jpeg = await call(t, server, 'POST', '/assets', {
    key: a.live,
    raw: readFileSync(new URL('../fixtures/gradient-64x48.jpg', import.meta.url)),
    headers: { 'content-type': 'image/jpeg' },
  });
  t.equal(jpeg.status, 201, 'a JPEG asset uploaded');
  const content = [
    { type: 'heading', level: 1, text: 'Minutes of the meeting' },
    { type: 'paragraph', text: 'Present: Ann, Bob and Carol. The meeting opened at ten.' },
    { type: 'bulletList', items: ['Budget approved', 'New members welcomed'] },
    { type: 'orderedList', items: ['Send the report', 'Book the hall'] },
    { type: 'divider' },
    {
      type: 'table',
      rows: [
        ['Name', 'Task'],
        ['Ann', 'Report'],
        ['Bob', 'Hall'],
      ],
    },
    { type: 'spacer', height: 24 },
    {
      type: 'columns',
      columns: [
        { content: [{ type: 'image', assetId: photo, width: '80%', align: 'center' }] },
        { content: [{ type: 'paragraph', text: 'The hall as it looks today.' }] },
      ],
    },
    { type: 'pageBreak' },
    { type: 'heading', level: 2, text: 'Appendix' },
    { type: 'image', assetId: jpeg.body.id, width: '30%', align: 'right' },
    { type: 'paragraph', text: 'Nothing further.' },
  ];
  const post = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: { templateId: a.templates.live.legacy, content },
  });
  t.equal(post.status, 202, JSON.stringify(post.body));
  const done = await until(t, server, a.live, post.body.id);
  t.equal(done.body.status, 'completed', JSON.stringify(done.body.error));
  t.equal(done.body.pages, 2, 'the page break starts a second page');
  t.equal(done.body.creditsSpent, 2, 'two A5 pages, one sheet each');
  const { text, pages, file } = await pdfText(t, server, a.live, post.body.id);
  t.equal(pages, 2);
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
  t.match(images, /image\s+200\s+100\s+rgb/, 'the PNG is in the PDF');
  t.match(images, /image\s+64\s+48\s+\w+\s+\d+\s+\d+\s+jpeg/, 'the JPEG is in the PDF as it is');
  for (const s of [
    'Minutes of the meeting',
    'Budget approved',
    '1.',
    '2.',
    'Book the hall',
    'Carol',
    'Report',
    'The hall as it looks today.',
    'Appendix',
  ])
    t.match(text, s, `the PDF holds "${s}"`);

  const over = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: {
      templateId: a.templates.live.legacy,
      content: [{ type: 'paragraph', text: 'x' }],
      overrides: { fontSize: 120 },
    },
  });
  t.match(over.body.error, {
    code: 'INVALID_REQUEST',
    field: 'overrides.fontSize',
    message: 'overrides.fontSize must be 6-96 pt, got 120',
  });
  const v2 = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: {
      templateId: a.templates.live.structured,
      data: { title: 'x', points: [] },
      overrides: { fontSize: 12 },
    },
  });
  t.match(v2.body.error, { code: 'INVALID_REQUEST', field: 'overrides' }, 'v2 templates refuse overrides');
  const withOverride = await call(t, server, 'POST', '/generations', {
    key: a.live,
    body: {
      templateId: a.templates.live.legacy,
      content: [{ type: 'paragraph', text: 'Big letters' }],
      overrides: { fontSize: 40 },
    },
  });
  t.equal(withOverride.status, 202, 'a v1 job may override its settings');
  t.equal((await until(t, server, a.live, withOverride.body.id)).body.status, 'completed');
});

t.test('content is refused naming the block by index; nothing created', async (t) => {
  const a = await server.tenant();
  const tpl = a.templates.live.legacy;
  const cases: [string, unknown[], string, RegExp][] = [
    [
      'an unknown block type',
      [
        { type: 'paragraph', text: 'a' },
        { type: 'video', src: 'x' },
      ],
      'content[1].type',
      /must be one of paragraph, heading, bulletList/,
    ],
    [
      'rich-editor JSON',
      [{ type: 'doc', content: [] }],
      'content[0].type',
      /HTML and rich-editor JSON are not accepted/,
    ],
    [
      'HTML in text',
      [{ type: 'paragraph', text: '<p>Hello</p>' }],
      'content[0].text',
      /HTML is not accepted/,
    ],
    [
      'an image by URL',
      [{ type: 'image', assetId: 'https://example.com/x.png' }],
      'content[0].assetId',
      /only by asset id, got a URL/,
    ],
    [
      'an image as base64',
      [{ type: 'image', assetId: 'data:image/png;base64,AAAA' }],
      'content[0].assetId',
      /got inline data/,
    ],
    [
      'an image as SVG',
      [{ type: 'image', assetId: '<svg xmlns="http://www.w3.org/2000/svg"/>' }],
      'content[0].assetId',
      /got SVG markup/,
    ],
    [
      'an image of nobody',
      [{ type: 'image', assetId: 'asset_0000000000000000000000' }],
      'content[0].assetId',
      /names no image of this account/,
    ],
    [
      'nested columns',
      [{ type: 'columns', columns: [{ content: [{ type: 'columns', columns: [] }] }, { content: [] }] }],
      'content[0].columns[0].content[0].type',
      /columns do not nest/,
    ],
    [
      'a page break in a column',
      [{ type: 'columns', columns: [{ content: [{ type: 'pageBreak' }] }, { content: [] }] }],
      'content[0].columns[0].content[0].type',
      /pageBreak cannot be in a column/,
    ],
    [
      'a field a block does not have',
      [{ type: 'divider', style: 'dashed' }],
      'content[0].style',
      /is not a known field/,
    ],
  ];
  for (const [what, content, field, message] of cases) {
    const r = await call(t, server, 'POST', '/generations', {
      key: a.live,
      body: { templateId: tpl, content },
    });
    t.equal(r.status, 400, what);
    t.equal(r.body.error.code, 'INVALID_REQUEST', what);
    t.equal(r.body.error.field, field, `${what}: the field`);
    t.match(r.body.error.message, message, `${what}: the message`);
  }
  t.equal(
    (await call(t, server, 'GET', '/generations', { key: a.live })).body.data.length,
    0,
    'no job was created',
  );
});

t.test('previews accept data and content', async (t) => {
  const a = await server.tenant();
  const data = await call(t, server, 'POST', '/previews', {
    key: a.live,
    body: { templateId: a.templates.live.structured, data: { title: 'Preview', points: ['one'] } },
  });
  const content = await call(t, server, 'POST', '/previews', {
    key: a.live,
    body: { templateId: a.templates.live.legacy, content: [{ type: 'heading', level: 1, text: 'Preview' }] },
  });
  for (const r of [data, content]) {
    t.equal(r.status, 202, JSON.stringify(r.body));
    t.equal((await until(t, server, a.live, r.body.id)).body.status, 'completed');
    const p = await call(t, server, 'GET', `/generations/${r.body.id}/preview`, { key: a.live });
    t.equal(p.body.pages.length, 1);
    t.equal(p.body.pages[0].contentType, 'image/png');
  }
});
