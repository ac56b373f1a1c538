// Sample input for a template the builder previews before anyone sends real text or data: a
// letter for a simple template, a value for every dynamic block of a structured one (varied, so
// repeated words show the hand's variation), a short document for a legacy one.
import type { JobInput } from './generation.ts';
import type { Block, TemplateModel } from './template.ts';

const LETTER =
  'Dear Ada,\n\nThank you for the lovely afternoon on Sunday. The garden looked wonderful, and the lemon cake was even better than last time. I have written down the recipe you gave me and will try it this weekend.\n\nWith warm wishes,\nGrace';

const PARAGRAPH =
  'Thank you for your order. We packed it by hand this morning, and it should reach you within three days.';

/** Readable words from a key: `order_total` → "Order total". */
function label(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Sample';
}

function sampleOf(b: Block, imageId: string | undefined): unknown {
  switch (b.type) {
    case 'heading':
      return label(b.key ?? 'heading');
    case 'text':
      return PARAGRAPH;
    case 'list':
      return ['Two jars of honey', 'A loaf of rye bread', 'Fresh thyme from the market'];
    case 'image':
      return imageId ? { assetId: imageId } : undefined;
    case 'table':
      return ['first', 'second', 'third'].map((nth, row) =>
        Object.fromEntries(
          b.columns.map((c, i) => [c.key, i === 0 ? `${label(c.key)} ${nth}` : String((row + 1) * (i + 2))]),
        ),
      );
    default:
      return undefined;
  }
}

/**
 * Input the template takes, filled with samples. A dynamic image takes `imageId` (one of the
 * account's images); with none it is left out, and the caller previews with it optional.
 */
export function sampleInput(t: TemplateModel, imageId?: string): JobInput {
  if (t.version === 1)
    return {
      content: [
        { type: 'heading', level: 1, text: t.name },
        { type: 'paragraph', text: PARAGRAPH },
        { type: 'bulletList', items: ['Two jars of honey', 'A loaf of rye bread'] },
      ],
    };
  if (t.mode === 'simple') return { text: LETTER };
  const data: Record<string, unknown> = {};
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.type === 'columns') for (const c of b.columns) walk(c.blocks as Block[]);
      else if ('static' in b && !b.static && b.key) {
        const v = sampleOf(b, imageId);
        if (v !== undefined) data[b.key] = v;
      }
    }
  };
  walk(t.blocks);
  return { data };
}

/** The template with every dynamic block `input` has no value for made optional (a preview only). */
export function withAbsentOptional(t: TemplateModel, input: JobInput): TemplateModel {
  if (t.version !== 2 || t.mode !== 'structured' || !('data' in input)) return t;
  const data = input.data;
  const relax = (b: Block): Block => {
    if (b.type === 'columns')
      return { ...b, columns: b.columns.map((c) => ({ ...c, blocks: c.blocks.map(relax) })) } as Block;
    if ('static' in b && !b.static && b.key && !(b.key in data)) return { ...b, optional: true };
    return b;
  };
  return { ...t, blocks: t.blocks.map(relax) };
}
