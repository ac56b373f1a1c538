// Render specifications of simple-text templates, as a submission maps them (src/domain).
import { bundledFontId } from '../../src/domain/fonts.ts';
import { specOf } from '../../src/domain/render-spec.ts';
import { parseTemplate, type Style } from '../../src/domain/template.ts';
import { MODIFIER_LIMITS, type RenderSpec } from '../../src/render/index.ts';

/** A simple template's style, every default filled, from a partial one (Caveat unless it says). */
export function styleOf(json: Record<string, unknown> = {}): Style {
  const parsed = parseTemplate({
    version: 2,
    name: 'test',
    mode: 'simple',
    style: { fontId: bundledFontId('caveat'), ...json },
  });
  if (!parsed.ok) throw new Error(`${parsed.field}: ${parsed.message}`);
  return (parsed.template as { style: Style }).style;
}

/** The specification of `text` in a simple template of this style. */
export function textSpec(style: Record<string, unknown> | Style, text: string): RenderSpec {
  return specOf({ version: 2, name: 'test', mode: 'simple', style: styleOf(style) }, { text });
}

/** Every modifier group switched off: typeset, not written. */
export const EFFECTS_OFF = {
  letters: { enabled: false },
  shapes: { enabled: false },
  words: { enabled: false },
  lines: { enabled: false },
  ink: { enabled: false },
  fatigue: { enabled: false },
  paper: { enabled: false },
};

/** Every modifier group at the top of its documented range (ink, fatigue and paper included). */
export const EFFECTS_AT_TOP: Record<string, Record<string, unknown>> = {
  ...MODIFIER_LIMITS,
  ink: { colorVariation: 1, pressure: 1, flow: 1, blots: 1, bleed: 1 },
  fatigue: { amount: 1 },
  paper: { texture: 1, scanner: true },
};
