// The builder's samples (pure): every demo template takes the sample made for it, as a job's
// input is checked; a dynamic image with no image to show is drawn as optional; a font's sample
// line is written in what the font covers.
import t from 'tap';
import { EXAMPLES, readExample } from '../../src/app/demo.ts';
import { Refusal } from '../../src/domain/errors.ts';
import { toRenderSpec } from '../../src/domain/render-spec.ts';
import { sampleInput, withAbsentOptional } from '../../src/domain/template-sample.ts';
import { parseTemplate, type TemplateModel } from '../../src/domain/template.ts';
import { BUNDLED_FONTS } from '../../src/domain/fonts.ts';
import { fontReader } from '../../src/render/index.ts';
import { bundledFontSource } from '../helpers/fonts.ts';

const { fontCoverage, sampleLine, sampleLineOf } = await fontReader();

const IMAGE = 'asset_0123456789abcdefABCDEF';
const limits = { textLimit: 100_000, subscribed: true };

function model(json: string): TemplateModel {
  const parsed = parseTemplate(JSON.parse(json));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.template;
}

t.test('every demo template takes the sample made for it', async (t) => {
  for (const name of EXAMPLES) {
    const m = model(readExample(name, { 'meadow.png': IMAGE }).template);
    const input = sampleInput(m, IMAGE);
    const { spec } = toRenderSpec(m, { input }, limits);
    t.ok(spec.content, `${name}: accepted as a job's input`);
  }
});

t.test(
  'a structured sample: a value under every dynamic key, in columns too; table rows by column key',
  async (t) => {
    const m = model(
      JSON.stringify({
        version: 2,
        name: 'Order',
        mode: 'structured',
        style: { fontId: bundledFontSource('caveat').id },
        blocks: [
          { type: 'heading', key: 'order_number' },
          { type: 'text', static: true, text: 'Thank you.' },
          {
            type: 'columns',
            columns: [
              { blocks: [{ type: 'image', key: 'logo' }] },
              { blocks: [{ type: 'list', key: 'items' }] },
            ],
          },
          { type: 'table', key: 'lines', columns: [{ key: 'what' }, { key: 'price' }] },
        ],
      }),
    );
    const input = sampleInput(m, IMAGE) as { data: Record<string, unknown> };
    t.same(Object.keys(input.data).sort(), ['items', 'lines', 'logo', 'order_number']);
    t.equal(input.data.order_number, 'Order number', 'a heading reads its key');
    t.same(input.data.logo, { assetId: IMAGE });
    t.same(Object.keys((input.data.lines as Record<string, string>[])[0]!), ['what', 'price']);

    // No image to show: left out, and the preview draws the block as optional.
    const without = sampleInput(m) as { data: Record<string, unknown> };
    t.notOk('logo' in without.data);
    t.throws(() => toRenderSpec(m, { input: without }, limits), Refusal, 'the template as saved requires it');
    const relaxed = withAbsentOptional(m, without);
    t.ok(toRenderSpec(relaxed, { input: without }, limits).spec, 'accepted with the block optional');
    t.equal(
      (m as { blocks: { columns?: { blocks: { optional?: boolean }[] }[] }[] }).blocks[2]!.columns![0]!
        .blocks[0]!.optional,
      false,
      'the template itself is not changed',
    );
  },
);

t.test('a sample line from a character map: its first script, else its characters', async (t) => {
  const span = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  const cyrillic = new Set([0x20, ...span(0x410, 0x44f)]);
  t.equal(sampleLineOf(cyrillic), 'АБВГДЕ ЖЗИЙКЛ МНОПРС ТУФХЦЧ ШЩЪЫЬЭ ЮЯабвг', 'Cyrillic letters in groups');
  const greekWithHole = new Set([
    0x20,
    0x391,
    ...span(0x393, 0x3a1),
    ...span(0x3a3, 0x3a9),
    ...span(0x3b1, 0x3c9),
  ]);
  t.equal(
    sampleLineOf(greekWithHole),
    'ΑΓΔΕΖΗ ΘΙΚΛΜΝ ΞΟΠΡΣΤ ΥΦΧΨΩα βγδεζη θικλμν',
    'a letter the font lacks is left out, nothing else put in',
  );
  const latinNoDigits = new Set([0x20, ...span(0x41, 0x5a), ...span(0x61, 0x7a)]);
  t.equal(
    sampleLineOf(latinNoDigits),
    'ABCDEF GHIJKL MNOPQR STUVWX YZabcd efghij',
    'no pangram without its digits',
  );
  t.equal(sampleLineOf(new Set([0x20, 0x2605, 0x2606, 0x263a])), '★☆☺', 'no script: the characters it has');
  t.equal(sampleLineOf(new Set([0x20])), '', 'nothing to write');
});

t.test("a font's sample line is written in what the font covers", async (t) => {
  t.equal(sampleLine(bundledFontSource('caveat').bytes), 'Sphinx of black quartz, judge my vow: 0123456789');
  for (const f of BUNDLED_FONTS) {
    const { bytes } = bundledFontSource(f.slug);
    const covers = fontCoverage(bytes);
    const line = sampleLine(bytes);
    t.ok(line.length >= 20, `${f.slug}: a line of some length`);
    t.same(
      [...line].filter((c) => c !== ' ' && !covers(c.codePointAt(0)!)),
      [],
      `${f.slug}: every character of "${line.slice(0, 24)}…" is in the font`,
    );
  }
});
