// The template model (DESIGN §5): what the dashboard builder stores and the admin CLI imports.
// Version 2: `mode` simple (accepts `text`) or structured (accepts `data`, has `blocks`).
// Version 1 (legacy Document v1): `settings` + `fontIds`, accepts `content` only.
// Parsing fills every default, so a stored model is complete and a job snapshot self-contained.
import { z } from 'zod';
import { MODIFIER_LIMITS } from '../render/index.ts';
import { isAllowedSize, STANDARD_SIZES, type StandardSize } from './page-size.ts';
import { show } from './errors.ts';
import {
  array,
  boolean,
  dottedPath,
  formatIssue,
  isReservedKey,
  object,
  oneOf,
  pattern,
  range,
  string,
} from './validation.ts';

const ID22 = '[0-9A-Za-z]{22}';
const fontId = pattern(new RegExp(`^font_${ID22}$`), 'a font id (font_…)');
const assetId = pattern(new RegExp(`^asset_${ID22}$`), 'an asset id (asset_…)');
const color = pattern(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'a colour #rgb or #rrggbb');
const mm = (min: number, max: number) => range(min, max, 'mm');
const amount = (max: number) => range(0, max);

const customSize = object({
  name: string(1, 60),
  width: range(1, 420 * 4, 'units'),
  height: range(1, 420 * 4, 'units'),
  unit: oneOf(['mm', 'px']),
}).refine(isAllowedSize, {
  error: (iss) => {
    const s = iss.input as { width: number; height: number; unit: string };
    return `must be at most 297 x 420 mm (A3) either way round, got ${s.width} x ${s.height} ${s.unit}`;
  },
});

const pageSize = z.union(
  [oneOf(Object.keys(STANDARD_SIZES) as [StandardSize, ...StandardSize[]]), customSize],
  {
    error: (iss) =>
      `must be A5, A4, A3, Letter or { name, width, height, unit: mm|px }, got ${JSON.stringify(iss.input)?.slice(0, 60)}`,
  },
);

const effect = <T extends z.ZodRawShape>(shape: T) => object({ enabled: boolean().default(true), ...shape });

/**
 * Templates written before `shapes` was its own modifier set shape variation with
 * `letters.warp`; such a template keeps what it asked for (warp 0: every letter the font's own).
 */
function legacyWarp(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || 'shapes' in input) return input;
  const warp = (input as { letters?: { warp?: unknown } }).letters?.warp;
  return typeof warp === 'number'
    ? { ...input, shapes: { enabled: warp > 0, amount: Math.min(warp, MODIFIER_LIMITS.shapes.amount) } }
    : input;
}

const L = MODIFIER_LIMITS;
const modifiers = z.preprocess(
  legacyWarp,
  object({
    seed: range(0, 2 ** 31 - 1, '', { int: true }).default(1),
    letters: effect({
      rotation: range(0, L.letters.rotation, 'degrees').default(2),
      scale: amount(L.letters.scale).default(0.04),
      baseline: range(0, L.letters.baseline, 'pt').default(0.8),
      spacing: range(0, L.letters.spacing, 'pt').default(0.3),
      /** Superseded by `shapes`; read only from templates that give it and no `shapes`. */
      warp: amount(1).optional(),
      alternates: boolean().default(true),
    }).prefault({}),
    shapes: effect({ amount: amount(L.shapes.amount).default(0.5) }).prefault({}),
    words: effect({
      spacing: amount(L.words.spacing).default(0.15),
      size: amount(L.words.size).default(0.03),
    }).prefault({}),
    lines: effect({
      slope: range(0, L.lines.slope, 'degrees').default(0.6),
      drift: mm(0, L.lines.drift).default(0.8),
      wobble: mm(0, L.lines.wobble).default(1.5),
    }).prefault({}),
    ink: effect({
      colorVariation: amount(1).default(0.15),
      pressure: amount(1).default(0.3),
      flow: amount(1).default(0.4),
      blots: amount(1).default(0.3),
      bleed: amount(1).default(0.5),
    }).prefault({}),
    fatigue: effect({ amount: amount(1).default(0.2) }).prefault({}),
    paper: effect({
      texture: amount(1).default(0.25),
      shadow: amount(1).default(0),
      tilt: range(0, 5, 'degrees').default(0),
      scanner: boolean().default(false),
    }).prefault({}),
  }),
);

const paper = object({
  type: oneOf(['blank', 'lined', 'grid', 'dotted']).default('blank'),
  spacing: mm(3, 30).default(8),
  color: color.default('#9db6d9'),
  background: color.default('#fffdf6'),
  marginRule: object({
    enabled: boolean().default(false),
    color: color.default('#e57373'),
    position: mm(0, 100).default(20), // left of the default 25 mm text margin, so writing never touches it
  }).prefault({}),
});

const styleShape = {
  fontSize: range(6, 96, 'pt').default(18),
  color: color.default('#1b2a6b'),
  lineHeight: range(0.8, 4, 'times the font size').default(1.5),
  letterSpacing: mm(-2, 10).default(0),
  wordSpacing: mm(-2, 20).default(0),
  margins: object({ top: mm(0, 100), right: mm(0, 100), bottom: mm(0, 100), left: mm(0, 100) }).default({
    top: 20,
    right: 20,
    bottom: 20,
    left: 25,
  }),
  firstLineIndent: mm(0, 100).default(0),
  align: oneOf(['left', 'right', 'center', 'justify']).default('left'),
  pageSize: pageSize.default('A4'),
  orientation: oneOf(['portrait', 'landscape']).default('portrait'),
  paper: paper.prefault({}),
  background: object({ color: color.optional(), assetId: assetId.optional() }).optional(),
  modifiers: modifiers.prefault({}),
};

export const styleSchema = object({ fontId, ...styleShape });

// Structured blocks (spec §2 Builder blocks). A block is Static (content here) or Dynamic
// (value from data[key]); layout elements take no data.
// A key names a field of `data` (and of a table's rows): never one that reaches a prototype.
const key = pattern(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a name of letters, digits and _ (1-64)').refine(
  (k) => !isReservedKey(k),
  { error: (iss) => `must not be __proto__, constructor or prototype, got ${show(iss.input)}` },
);
const dynamic = { key: key.optional(), static: boolean().default(false), optional: boolean().default(false) };
const blockStyle = object({
  fontSize: range(6, 96, 'pt').optional(),
  color: color.optional(),
  align: oneOf(['left', 'right', 'center', 'justify']).optional(),
}).optional();

const textBlock = object({
  type: z.literal('text'),
  ...dynamic,
  text: string(0, 10_000).optional(),
  style: blockStyle,
});
const headingBlock = object({
  type: z.literal('heading'),
  ...dynamic,
  level: range(1, 3, '', { int: true }).default(1),
  text: string(0, 1_000).optional(),
  style: blockStyle,
});
const listBlock = object({
  type: z.literal('list'),
  ...dynamic,
  ordered: boolean().default(false),
  items: array(string(0, 10_000), 0, 100).optional(),
  style: blockStyle,
});
const imageBlock = object({
  type: z.literal('image'),
  ...dynamic,
  assetId: assetId.optional(),
  width: range(1, 100, 'percent').default(100),
  align: oneOf(['left', 'center', 'right']).default('left'),
});
const tableBlock = object({
  type: z.literal('table'),
  ...dynamic,
  columns: array(
    object({ key, title: string(0, 200).default(''), width: range(1, 100, 'percent').optional() }),
    1,
    20,
    'columns',
  ),
  rows: array(z.record(z.string(), z.string()), 0, 200, 'rows').optional(),
});
const divider = object({ type: z.literal('divider') });
const spacer = object({ type: z.literal('spacer'), height: range(1, 500, 'pt') });
const pageBreak = object({ type: z.literal('pageBreak') });

const leafBlock = z.discriminatedUnion(
  'type',
  [textBlock, headingBlock, listBlock, imageBlock, tableBlock, divider, spacer],
  {
    error: (iss) =>
      `must be text, heading, list, image, table, divider or spacer (columns do not nest), got ${blockType(iss.input)}`,
  },
);
const columnsBlock = object({
  type: z.literal('columns'),
  gap: range(0, 100, 'pt').default(12),
  columns: array(
    object({ width: range(1, 99, 'percent').optional(), blocks: array(leafBlock, 0, 50, 'blocks') }),
    2,
    6,
    'columns',
  ),
});
const block = z.discriminatedUnion(
  'type',
  [textBlock, headingBlock, listBlock, imageBlock, tableBlock, columnsBlock, divider, spacer, pageBreak],
  {
    error: (iss) =>
      `must be text, heading, list, image, table, columns, divider, spacer or pageBreak, got ${blockType(iss.input)}`,
  },
);

/** The received `type` (zod hands over the whole block, or the type alone). */
function blockType(input: unknown): string {
  const type = typeof input === 'object' && input !== null ? (input as { type?: unknown }).type : input;
  return typeof type === 'string' ? JSON.stringify(type.slice(0, 30)) : show(type);
}

const name = string(1, 120);

const v2Simple = object({ version: z.literal(2), name, mode: z.literal('simple'), style: styleSchema });
const v2Structured = object({
  version: z.literal(2),
  name,
  mode: z.literal('structured'),
  style: styleSchema,
  blocks: array(block, 1, 200, 'blocks'),
});
const v1Legacy = object({
  version: z.literal(1),
  name,
  settings: object({ ...styleShape, columnGap: range(0, 100, 'pt').default(12) }),
  fontIds: array(fontId, 1, 5, 'fonts'),
});

// A legacy job may override its template's settings for itself (the v1 contract): any settings
// field but the page (size, orientation, paper, background), within the same ranges.
const v1Overrides = object({ ...styleShape, columnGap: range(0, 100, 'pt') })
  .omit({ pageSize: true, orientation: true, paper: true, background: true })
  .partial();

/** A v1 template with a job's `overrides` applied; throws naming the offending field. */
export function withOverrides(
  t: LegacyTemplate,
  overrides: unknown,
): { ok: true; template: LegacyTemplate } | { ok: false; field: string; message: string } {
  const parsed = v1Overrides.safeParse(overrides);
  if (!parsed.success)
    return { ok: false, ...formatIssue(parsed.error.issues[0]!, (p) => dottedPath(['overrides', ...p])) };
  // Only the fields sent: the schema's defaults must not reset the template's own values. An
  // object sent (margins, modifiers) replaces the template's whole.
  const given = overrides as Record<string, unknown>;
  const o = Object.fromEntries(Object.entries(parsed.data).filter(([k]) => k in given));
  return { ok: true, template: { ...t, settings: { ...t.settings, ...o } } };
}

export type SimpleTemplate = z.output<typeof v2Simple>;
export type StructuredTemplate = z.output<typeof v2Structured>;
export type LegacyTemplate = z.output<typeof v1Legacy>;
export type TemplateModel = SimpleTemplate | StructuredTemplate | LegacyTemplate;
export type Style = z.output<typeof styleSchema>;
export type Block = z.output<typeof block>;
export type TemplateKind = 'simple' | 'structured' | 'legacy';

export function templateKind(t: TemplateModel): TemplateKind {
  return t.version === 1 ? 'legacy' : t.mode;
}

export type TemplateParse =
  | { ok: true; template: TemplateModel }
  | { ok: false; field: string; message: string };

/** Validates an imported template and fills its defaults; names the first offending field. */
export function parseTemplate(input: unknown): TemplateParse {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, field: '(template)', message: 'a template must be a JSON object' };
  }
  const raw = input as Record<string, unknown>;
  let schema: z.ZodType<TemplateModel>;
  if (raw.version === 1) schema = v1Legacy;
  else if (raw.version === 2 && raw.mode === 'structured') schema = v2Structured;
  else if (raw.version === 2 && raw.mode === 'simple') schema = v2Simple;
  else if (raw.version === 2) {
    return {
      ok: false,
      field: 'mode',
      message: `mode must be simple or structured, got ${JSON.stringify(raw.mode) ?? 'nothing'}`,
    };
  } else {
    return {
      ok: false,
      field: 'version',
      message: `version must be 1 or 2, got ${JSON.stringify(raw.version) ?? 'nothing'}`,
    };
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, ...formatIssue(parsed.error.issues[0]!) };
  const t = parsed.data;
  if (t.version === 2 && t.mode === 'structured') {
    const problem = checkBlocks(t.blocks);
    if (problem) return { ok: false, ...problem };
  }
  return { ok: true, template: t };
}

type Problem = { field: string; message: string };

/** Static blocks carry their content; dynamic blocks a key unique within the template. */
function checkBlocks(blocks: Block[]): Problem | null {
  const seen = new Map<string, string>();
  const visit = (b: Block, path: (string | number)[]): Problem | null => {
    if (b.type === 'columns') {
      for (const [ci, col] of b.columns.entries()) {
        const total = b.columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
        if (b.columns.every((c) => c.width !== undefined) && Math.abs(total - 100) > 0.01) {
          return {
            field: dottedPath([...path, 'columns']),
            message: `${dottedPath([...path, 'columns'])} widths must total 100, got ${total}`,
          };
        }
        for (const [bi, inner] of col.blocks.entries()) {
          const p = visit(inner, [...path, 'columns', ci, 'blocks', bi]);
          if (p) return p;
        }
      }
      return null;
    }
    if (!('static' in b)) return null;
    const field = dottedPath(path);
    if (b.static) {
      const content = { text: 'text', heading: 'text', list: 'items', image: 'assetId', table: 'rows' }[
        b.type
      ];
      if ((b as Record<string, unknown>)[content] === undefined) {
        return {
          field: `${field}.${content}`,
          message: `${field}.${content} is required for a static ${b.type} block`,
        };
      }
      return null;
    }
    if (b.key === undefined)
      return { field: `${field}.key`, message: `${field}.key is required for a dynamic ${b.type} block` };
    const earlier = seen.get(b.key);
    if (earlier)
      return {
        field: `${field}.key`,
        message: `${field}.key must be unique, got "${b.key}" already used at ${earlier}`,
      };
    seen.set(b.key, field);
    return null;
  };
  for (const [i, b] of blocks.entries()) {
    const p = visit(b, ['blocks', i]);
    if (p) return p;
  }
  return null;
}

/**
 * The style a template writes in. A legacy v1 template's settings take its first font; its
 * second, when given, writes the headings (templateFonts).
 */
export function templateStyle(t: TemplateModel): Style {
  if (t.version === 2) return t.style;
  const { columnGap: _, ...settings } = t.settings;
  return { ...settings, fontId: t.fontIds[0]! };
}

/** Fonts by role: the body's, the headings' (v1's second font), then any further v1 fonts as fallbacks. */
export function templateFonts(t: TemplateModel): { body: string; heading?: string; fallbacks: string[] } {
  if (t.version === 2) return { body: t.style.fontId, fallbacks: [] };
  const [body, heading, ...fallbacks] = t.fontIds;
  return { body: body!, ...(heading ? { heading } : {}), fallbacks };
}

/** Every font a template names, for existence and premium checks. */
export function templateFontIds(t: TemplateModel): string[] {
  return t.version === 1 ? [...t.fontIds] : [t.style.fontId];
}

/** Every asset a template names (backgrounds, static images). */
export function templateAssetIds(t: TemplateModel): string[] {
  const ids: string[] = [];
  const style = t.version === 1 ? t.settings : t.style;
  if (style.background?.assetId) ids.push(style.background.assetId);
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.type === 'image' && b.assetId) ids.push(b.assetId);
      if (b.type === 'columns') for (const c of b.columns) walk(c.blocks as Block[]);
    }
  };
  if (t.version === 2 && t.mode === 'structured') walk(t.blocks);
  return ids;
}

/** JSON Schemas (2020-12) of the stored model's parts, for the OpenAPI document. */
export function templateJsonSchemas(): Record<'style' | 'block' | 'settings', Record<string, unknown>> {
  const opts = { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' } as const;
  const strip = (s: Record<string, unknown>) => {
    const { $schema: _, ...rest } = s;
    return rest;
  };
  return {
    style: strip(z.toJSONSchema(styleSchema, opts)),
    block: strip(z.toJSONSchema(block, opts)),
    settings: strip(z.toJSONSchema(v1Legacy.shape.settings, opts)),
  };
}
