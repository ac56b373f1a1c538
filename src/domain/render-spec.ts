// A template snapshot plus a request's input → the render specification the engine writes from
// (DESIGN §3). Done once, at submission: the job stores the specification and the worker renders
// it as it is, so a later change of these rules never fails a job already admitted. Every check
// of the input against its template happens here; a refusal names the field.
import type { FontPlan, RenderSpec, Style } from '../render/index.ts';
import { apiRefusal } from './errors.ts';
import { boldCutId, fallbackChain, typesetScripts } from './fonts.ts';
import { checkInputForTemplate, type JobInput } from './generation.ts';
import {
  parseTemplate,
  type TemplateModel,
  templateFonts,
  templateStyle,
  withOverrides,
} from './template.ts';

export interface SpecRequest {
  input: JobInput;
  /** A legacy (v1) job's settings for itself. */
  overrides?: unknown;
  /** POST /renders: the one override, top level (DESIGN §4). */
  fontSize?: number;
}

export interface SpecLimits {
  /** Characters of text, structured input's included. */
  textLimit: number;
  /** Only for the wording of a refusal ("… without a subscription"). */
  subscribed: boolean;
}

/**
 * Checks the input against its template and maps both to a render specification. Returns the
 * template as the job keeps it (a v1 template with the job's overrides applied) with the spec.
 */
export function toRenderSpec(
  template: TemplateModel,
  request: SpecRequest,
  limits: SpecLimits,
): { template: TemplateModel; spec: RenderSpec } {
  let model = template;
  if (model.version === 1 && request.overrides !== undefined) {
    const applied = withOverrides(model, request.overrides);
    if (!applied.ok) throw apiRefusal('INVALID_REQUEST', applied.message, { field: applied.field });
    model = applied.template;
  }
  const blocks = checkInputForTemplate(model, request, limits);
  return {
    template: model,
    spec: specOf(
      model,
      blocks ? { blocks } : { text: (request.input as { text: string }).text },
      request.fontSize,
    ),
  };
}

/** The specification of a template and its already checked content (a job admitted before specs were stored). */
export function specOf(model: TemplateModel, content: RenderSpec['content'], fontSize?: number): RenderSpec {
  const { fontId: _, ...style } = templateStyle(model);
  const written: Style = fontSize === undefined ? style : { ...style, fontSize };
  return { style: written, fonts: fontPlan(model, 'blocks' in content), content };
}

/**
 * The template's fonts, then the bundled fallback chain. Headings write in the bold cut of their
 * font (a v1 template's second font, else the body's) when one ships, else in that font twice.
 */
function fontPlan(model: TemplateModel, headings: boolean): FontPlan {
  const fonts = templateFonts(model);
  const body = fallbackChain(fonts.body, ...fonts.fallbacks);
  const typeset = (ids: string[]) => {
    const t = typesetScripts(ids);
    return Object.keys(t).length ? { typeset: t } : {};
  };
  if (!headings) return { body, ...typeset(body) };
  const heading = fonts.heading ?? fonts.body;
  const bold = boldCutId(heading);
  const headingFonts = fallbackChain(bold ?? heading, ...body);
  return {
    body,
    headings: { fonts: headingFonts, overstrike: !bold },
    ...typeset([...new Set([...body, ...headingFonts])]),
  };
}

/**
 * A font's sample line, as the dashboard checks a personal font before accepting it: one line on
 * a strip of paper in the template defaults' hand, written by that font alone (no fallbacks, so
 * a character it cannot write is refused rather than borrowed). `fallback`: the template's
 * fallback hands write what it has not (a hand's sample paragraph); `height` of the strip, mm.
 */
export function fontSampleSpec(
  fontId: string,
  text: string,
  opts: { height?: number; fallback?: boolean } = {},
): RenderSpec {
  const parsed = parseTemplate({
    version: 2,
    name: 'Font sample',
    mode: 'simple',
    style: {
      fontId,
      fontSize: 16,
      pageSize: { name: 'Font sample', width: 180, height: opts.height ?? 45, unit: 'mm' },
      margins: { top: 6, right: 6, bottom: 2, left: 6 },
    },
  });
  if (!parsed.ok) throw new Error(`the font sample's template: ${parsed.message}`);
  const spec = specOf(parsed.template, { text });
  return opts.fallback ? spec : { ...spec, fonts: { body: [fontId] } };
}
