// What the benchmarks give the engine: the 100,000-character document's style, a one-page letter
// as customers send them, and a template's style from its JSON with a seed of its own.
import { bundledFontId } from '../src/domain/fonts.ts';
import { parseTemplate, type Style } from '../src/domain/template.ts';
import { prose } from './prose.ts';

export const DOC_STYLE = {
  fontSize: 28,
  lineHeight: 2,
  pageSize: 'A4',
  paper: { type: 'lined', spacing: 10 },
  margins: { top: 20, right: 15, bottom: 15, left: 20 },
};

/** A one-page letter as customers send them: A5, the template defaults (18 pt, 1.5 lines, margins 20/20/20/25 mm). */
export const LETTER_STYLE = { pageSize: 'A5' };

const NAMES = ['Margaret', 'Tom', 'Aunt Ruth', 'Mr Okafor', 'Priya', 'Jonas', 'Elena', 'Sam'];

/** Letter `i`: a greeting, about 420 characters of prose of its own, a closing; ~480 characters. */
export function letterText(i: number): string {
  const name = NAMES[i % NAMES.length]!;
  return `Dear ${name},\n${prose(420, 1000 + i)
    .replace(/\n/g, ' ')
    .trim()}\nWith love,\n${NAMES[(i + 3) % NAMES.length]}`;
}

export function styleOf(json: Record<string, unknown>): Style {
  const parsed = parseTemplate({
    version: 2,
    name: 'bench',
    mode: 'simple',
    style: { fontId: bundledFontId('caveat'), ...json },
  });
  if (!parsed.ok) throw new Error(parsed.message);
  return (parsed.template as { style: Style }).style;
}

/** `json` with the hand's seed set to `seed` (the rest of the modifiers at their defaults). */
export function seeded(json: Record<string, unknown>, seed: number): Style {
  const style = styleOf(json);
  return { ...style, modifiers: { ...style.modifiers, seed } };
}
