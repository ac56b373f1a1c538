// The template model of DESIGN §5: what is accepted, the defaults filled, and the first
// offending field named with what was allowed and what was received.
import { readdirSync } from 'node:fs';
import t from 'tap';
import { EXAMPLE_IMAGES, EXAMPLES, readExample } from '../../src/app/demo.ts';
import { checkInputForTemplate, type JobInput } from '../../src/domain/generation.ts';
import { parseTemplate, templateAssetIds, templateFontIds } from '../../src/domain/template.ts';

const FONT = 'font_76FIvrxbMWVVj6WyJCWgxI';
const ASSET = 'asset_0000000000000000000001';
const simple = (style: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  version: 2,
  name: 'T',
  mode: 'simple',
  style: { fontId: FONT, ...style },
  ...extra,
});
const structured = (blocks: unknown[]) => ({
  version: 2,
  name: 'S',
  mode: 'structured',
  style: { fontId: FONT },
  blocks,
});

t.test('the shipped example templates parse, and each of their inputs fits', async (t) => {
  const dir = new URL('../../src/app/demo/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.template.json'));
  t.same(
    files.map((f) => f.replace('.template.json', '')).sort(),
    [...EXAMPLES].sort(),
    'every template file is an example',
  );
  const kinds = new Set<string>();
  const images = Object.fromEntries(EXAMPLE_IMAGES.map((f) => [f, ASSET]));
  for (const name of EXAMPLES) {
    const { template, input } = readExample(name, images);
    const r = parseTemplate(JSON.parse(template));
    t.ok(r.ok, `${name} parses${r.ok ? '' : `: ${r.message}`}`);
    if (!r.ok) continue;
    kinds.add(r.template.version === 1 ? 'legacy' : r.template.mode);
    t.doesNotThrow(
      () =>
        checkInputForTemplate(
          r.template,
          { input: input as JobInput },
          { textLimit: 100_000, subscribed: true },
        ),
      `${name}: its example input is valid`,
    );
  }
  t.same([...kinds].sort(), ['legacy', 'simple', 'structured'], 'every kind');
});

t.test('defaults are filled so a snapshot is complete', async (t) => {
  const r = parseTemplate(simple());
  if (!r.ok) throw new Error(r.message);
  t.match(r.template, {
    style: {
      fontId: FONT,
      fontSize: 18,
      pageSize: 'A4',
      orientation: 'portrait',
      margins: { top: 20, right: 20, bottom: 20, left: 25 },
      paper: { type: 'blank', marginRule: { enabled: false } },
      modifiers: {
        seed: 1,
        letters: { enabled: true, rotation: 2 },
        lines: { enabled: true },
        paper: { tilt: 0 },
      },
    },
  });
  const off = parseTemplate(simple({ modifiers: { letters: { enabled: false }, ink: { enabled: false } } }));
  t.match(off, {
    ok: true,
    template: { style: { modifiers: { letters: { enabled: false, rotation: 2 }, ink: { enabled: false } } } },
  });
  const legacy = parseTemplate({ version: 1, name: 'L', settings: {}, fontIds: [FONT] });
  t.match(
    legacy,
    { ok: true, template: { settings: { columnGap: 12, fontSize: 18 } } },
    'columnGap defaults to 12 pt',
  );
});

t.test('refusals name the field, the allowed range and the received value', async (t) => {
  const cases: [unknown, string, string][] = [
    [null, '(template)', 'a template must be a JSON object'],
    [[], '(template)', 'a template must be a JSON object'],
    [{ name: 'x' }, 'version', 'version must be 1 or 2, got nothing'],
    [{ version: 3 }, 'version', 'version must be 1 or 2, got 3'],
    [{ version: 2, mode: 'fancy' }, 'mode', 'mode must be simple or structured, got "fancy"'],
    [simple({ fontSize: 120 }), 'style.fontSize', 'style.fontSize must be 6-96 pt, got 120'],
    [simple({ fontSize: 5.9 }), 'style.fontSize', 'style.fontSize must be 6-96 pt, got 5.9'],
    [simple({ fontSize: '12' }), 'style.fontSize', 'style.fontSize must be 6-96 pt, got "12"'],
    [simple({ fontId: 'caveat' }), 'style.fontId', 'style.fontId must be a font id (font_…), got "caveat"'],
    [simple({ color: 'blue' }), 'style.color', 'style.color must be a colour #rgb or #rrggbb, got "blue"'],
    [
      simple({ margins: { top: 1, right: 1, bottom: 1, left: 101 } }),
      'style.margins.left',
      'style.margins.left must be 0-100 mm, got 101',
    ],
    [
      simple({ paper: { type: 'papyrus' } }),
      'style.paper.type',
      'style.paper.type must be one of blank, lined, grid, dotted, got "papyrus"',
    ],
    [
      simple({ modifiers: { letters: { rotation: 40 } } }),
      'style.modifiers.letters.rotation',
      'style.modifiers.letters.rotation must be 0-6 degrees, got 40',
    ],
    [
      simple({ modifiers: { seed: 1.5 } }),
      'style.modifiers.seed',
      'style.modifiers.seed must be a whole number 0-2147483647, got 1.5',
    ],
    [simple({ sparkle: true }), 'style.sparkle', 'style.sparkle is not a known field'],
    [simple({}, { overrides: {} }), 'overrides', 'overrides is not a known field'],
    [simple({}, { blocks: [] }), 'blocks', 'blocks is not a known field'],
    [
      simple({ pageSize: { name: 'Poster', width: 300, height: 500, unit: 'mm' } }),
      'style.pageSize',
      'style.pageSize must be at most 297 x 420 mm (A3) either way round, got 300 x 500 mm',
    ],
    [
      simple({ pageSize: 'B5' }),
      'style.pageSize',
      'style.pageSize must be A5, A4, A3, Letter or { name, width, height, unit: mm|px }, got "B5"',
    ],
    [structured([]), 'blocks', 'blocks must have 1-200 blocks, got 0'],
    [
      structured([{ type: 'video' }]),
      'blocks[0].type',
      'blocks[0].type must be text, heading, list, image, table, columns, divider, spacer or pageBreak, got "video"',
    ],
    [
      structured([{ key: 'x' }]),
      'blocks[0].type',
      'blocks[0].type must be text, heading, list, image, table, columns, divider, spacer or pageBreak, got nothing',
    ],
    [structured([{ type: 'text' }]), 'blocks[0].key', 'blocks[0].key is required for a dynamic text block'],
    [
      structured([{ type: 'text', static: true }]),
      'blocks[0].text',
      'blocks[0].text is required for a static text block',
    ],
    [
      structured([
        { type: 'text', key: 'a' },
        { type: 'list', key: 'a' },
      ]),
      'blocks[1].key',
      'blocks[1].key must be unique, got "a" already used at blocks[0]',
    ],
    [
      structured([{ type: 'text', key: 'a b' }]),
      'blocks[0].key',
      'blocks[0].key must be a name of letters, digits and _ (1-64), got "a b"',
    ],
    [
      structured([{ type: 'spacer', height: 501 }]),
      'blocks[0].height',
      'blocks[0].height must be 1-500 pt, got 501',
    ],
    [
      structured([{ type: 'table', key: 't', columns: [] }]),
      'blocks[0].columns',
      'blocks[0].columns must have 1-20 columns, got 0',
    ],
    [
      structured([{ type: 'columns', columns: [{ blocks: [] }] }]),
      'blocks[0].columns',
      'blocks[0].columns must have 2-6 columns, got 1',
    ],
    [
      structured([
        { type: 'columns', columns: [{ blocks: [{ type: 'columns', columns: [] }] }, { blocks: [] }] },
      ]),
      'blocks[0].columns[0].blocks[0].type',
      'blocks[0].columns[0].blocks[0].type must be text, heading, list, image, table, divider or spacer (columns do not nest), got "columns"',
    ],
    [
      structured([
        {
          type: 'columns',
          columns: [
            { width: 30, blocks: [] },
            { width: 60, blocks: [] },
          ],
        },
      ]),
      'blocks[0].columns',
      'blocks[0].columns widths must total 100, got 90',
    ],
    [{ version: 1, name: 'L', settings: {}, fontIds: [] }, 'fontIds', 'fontIds must have 1-5 fonts, got 0'],
    [
      { version: 1, name: 'L', settings: { fontId: FONT }, fontIds: [FONT] },
      'settings.fontId',
      'settings.fontId is not a known field',
    ],
  ];
  for (const [input, field, message] of cases) {
    t.same(parseTemplate(input), { ok: false, field, message }, message);
  }
});

t.test('fonts and assets a template names', async (t) => {
  const r = parseTemplate(
    structured([
      { type: 'image', static: true, assetId: ASSET },
      {
        type: 'columns',
        columns: [
          { blocks: [{ type: 'image', key: 'photo' }] },
          { blocks: [{ type: 'text', key: 'caption' }] },
        ],
      },
    ]),
  );
  if (!r.ok) throw new Error(r.message);
  t.same(templateFontIds(r.template), [FONT]);
  t.same(templateAssetIds(r.template), [ASSET]);
});
