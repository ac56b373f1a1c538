// Structured input → the blocks the render engine lays out (spec §2 Builder blocks and Document
// v1 content blocks, §8 Document v1 limits). Two doors, one result:
// - a structured (v2) template's blocks with the job's `data` filled in: a bad value is
//   INVALID_TEMPLATE_DATA naming its path (`items/2/price`);
// - a legacy (v1) job's `content` array: a bad block is INVALID_REQUEST naming it by index
//   (`content[3].items`).
// Pure: asset existence is checked by the caller against the store (assetIds() lists them).
import { z } from 'zod';
import type { Block } from '../render/index.ts';
import { apiRefusal, grouped, Refusal, show } from './errors.ts';
import type { StructuredTemplate, TemplateModel } from './template.ts';
import {
  array,
  badCharacter,
  dottedPath,
  formatIssue,
  object,
  oneOf,
  range,
  slashPath,
  string,
} from './validation.ts';

/** What the engine lays out: every value resolved, lengths in pt, widths as fractions. */
export type DocBlock = Block;

/** Spec §8, Document v1. */
export const DOCUMENT_V1_LIMITS = {
  blocks: 200,
  textChars: 10_000,
  listItems: 100,
  tableRows: 200,
  tableColumns: 20,
  cells: 4_000,
  images: 20,
  columns: [2, 6],
  spacer: [1, 500],
} as const;
const L = DOCUMENT_V1_LIMITS;

/**
 * The blocks a job lays out: a structured template with its `data`, or v1 `content`; null for
 * simple text. Throws the API error that names the bad field.
 */
export function jobBlocks(
  template: TemplateModel,
  input: { text: string } | { data: Record<string, unknown> } | { content: unknown[] },
): DocBlock[] | null {
  if ('data' in input && template.version === 2 && template.mode === 'structured')
    return resolveStructured(template, input.data);
  if ('content' in input && template.version === 1)
    return parseContent(input.content, template.settings.columnGap);
  return null;
}

/** Every asset the blocks place, in order (for the existence check and the render task). */
export function assetIds(blocks: DocBlock[]): string[] {
  const ids: string[] = [];
  const walk = (bs: DocBlock[]) => {
    for (const b of bs) {
      if (b.type === 'image') ids.push(b.assetId);
      else if (b.type === 'columns') for (const c of b.columns) walk(c);
    }
  };
  walk(blocks);
  return ids;
}

/** All the text of the blocks, counted against the job's character limit as simple text is. */
export function textOf(blocks: DocBlock[]): string[] {
  const out: string[] = [];
  const walk = (bs: DocBlock[]) => {
    for (const b of bs) {
      if (b.type === 'paragraph' || b.type === 'heading') out.push(b.text);
      else if (b.type === 'list') out.push(...b.items);
      else if (b.type === 'table') {
        if (b.header) out.push(...b.header);
        for (const r of b.rows) out.push(...r);
      } else if (b.type === 'columns') for (const c of b.columns) walk(c);
    }
  };
  walk(blocks);
  return out;
}

/** Equal shares when no width is given; otherwise the given percentages as fractions. */
function shares(widths: (number | undefined)[]): number[] {
  if (widths.every((w) => w === undefined)) return widths.map(() => 1 / widths.length);
  const given = widths.filter((w): w is number => w !== undefined);
  const left = Math.max(0, 100 - given.reduce((s, w) => s + w, 0));
  const missing = widths.length - given.length;
  return widths.map((w) => (w ?? left / missing) / 100);
}

// ---------------------------------------------------------------------------------------------
// Legacy Document v1 content.

const HTML_TAG = /<\/?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^<>]*)?\/?>/;
const text = (max: number = L.textChars) =>
  string(0, max)
    .refine((s) => !HTML_TAG.test(s), { error: 'must be plain text: HTML is not accepted' })
    .superRefine((s, ctx) => {
      const bad = badCharacter(s);
      if (bad) ctx.addIssue({ code: 'custom', message: `must be plain text: it holds ${bad.what}` });
    });
const items = array(text(), 1, L.listItems, 'items');
const percent = z
  .string({ error: (iss) => `must be a percentage such as "50%", got ${show(iss.input)}` })
  .regex(/^\d{1,3}(?:\.\d+)?%$/, {
    error: (iss) => `must be a percentage such as "50%", got ${show(iss.input)}`,
  })
  .refine((s) => Number.parseFloat(s) >= 1 && Number.parseFloat(s) <= 100, {
    error: (iss) => `must be 1%-100%, got ${show(iss.input)}`,
  });
const assetRef = z
  .string({ error: (iss) => `must be an asset id (asset_…) from POST /assets, got ${show(iss.input)}` })
  .refine((s) => /^asset_[0-9A-Za-z]{22}$/.test(s), {
    error: (iss) => {
      const s = String(iss.input);
      const what = /^https?:/i.test(s)
        ? 'a URL'
        : /^data:/i.test(s)
          ? 'inline data'
          : /<svg/i.test(s)
            ? 'SVG markup'
            : show(s);
      return `must be an asset id (asset_…) from POST /assets; images are referenced only by asset id, got ${what}`;
    },
  });

const leafShapes = {
  paragraph: object({ type: z.literal('paragraph'), text: text() }),
  heading: object({ type: z.literal('heading'), level: range(1, 3, '', { int: true }), text: text() }),
  bulletList: object({ type: z.literal('bulletList'), items }),
  orderedList: object({
    type: z.literal('orderedList'),
    items,
    start: range(1, 10_000, '', { int: true }).optional(),
  }),
  image: object({
    type: z.literal('image'),
    assetId: assetRef,
    width: percent.optional(),
    align: oneOf(['left', 'center', 'right']).optional(),
  }),
  table: object({
    type: z.literal('table'),
    rows: array(array(text(), 1, L.tableColumns, 'cells'), 1, L.tableRows, 'rows'),
  }),
  divider: object({ type: z.literal('divider') }),
  spacer: object({ type: z.literal('spacer'), height: range(L.spacer[0], L.spacer[1], 'pt') }),
};
const inColumn = Object.keys(leafShapes).join(', ');
const columnLeaf = z.discriminatedUnion(
  'type',
  Object.values(leafShapes) as unknown as [z.ZodObject, ...z.ZodObject[]],
  {
    error: (iss) =>
      `type must be one of ${inColumn} inside a column (columns do not nest; pageBreak cannot be in a column), got ${typeOf(iss.input)}`,
  },
);
const columns = object({
  type: z.literal('columns'),
  columns: array(
    object({ width: range(1, 99, 'percent').optional(), content: array(columnLeaf, 0, L.blocks, 'blocks') }),
    L.columns[0],
    L.columns[1],
    'columns',
  ),
});
const topLevel = [...Object.keys(leafShapes), 'columns', 'pageBreak'].join(', ');
const v1Block = z.discriminatedUnion(
  'type',
  [
    ...(Object.values(leafShapes) as unknown as z.ZodObject[]),
    columns,
    object({ type: z.literal('pageBreak') }),
  ] as unknown as [z.ZodObject, ...z.ZodObject[]],
  { error: (iss) => `type must be one of ${topLevel}, got ${typeOf(iss.input)}${richHint(iss.input)}` },
);

function typeOf(input: unknown): string {
  const type = typeof input === 'object' && input !== null ? (input as { type?: unknown }).type : input;
  return typeof type === 'string' ? JSON.stringify(type.slice(0, 30)) : show(type);
}

/** Rich-editor JSON (ProseMirror, Slate, Draft, Quill deltas) announces itself; say so. */
function richHint(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const o = input as Record<string, unknown>;
  if (o.type === 'doc' || 'blocks' in o || 'ops' in o || 'insert' in o || 'children' in o || 'html' in o)
    return ' (HTML and rich-editor JSON are not accepted)';
  return '';
}

type V1 = { type: string } & Record<string, unknown>;

/** Validates a v1 `content` array against every limit of spec §8 and resolves it. */
export function parseContent(content: unknown[], columnGap: number): DocBlock[] {
  const fail = (path: (string | number)[], message: string): never => {
    const field = dottedPath(['content', ...path]);
    throw apiRefusal('INVALID_REQUEST', `${field} ${message}`, { field });
  };
  if (content.length < 1) fail([], `must hold 1-${L.blocks} blocks, got none`);
  // Totals first, over the raw blocks, so that an oversize document is named as such.
  let blocks = 0;
  let images = 0;
  let cells = 0;
  const count = (b: unknown, path: (string | number)[]) => {
    blocks++;
    if (blocks > L.blocks)
      fail(path, `is block ${blocks}: at most ${L.blocks} blocks are allowed, columns' blocks included`);
    const o = (typeof b === 'object' && b !== null ? b : {}) as Record<string, unknown>;
    if (o.type === 'image') {
      images++;
      if (images > L.images) fail(path, `is image ${images}: at most ${L.images} images are allowed`);
    }
    if (o.type === 'table' && Array.isArray(o.rows)) {
      for (const r of o.rows) cells += Array.isArray(r) ? r.length : 0;
      if (cells > L.cells)
        fail(
          [...path, 'rows'],
          `brings the document to ${cells} table cells: at most ${L.cells} are allowed`,
        );
    }
    if (o.type === 'columns' && Array.isArray(o.columns)) {
      for (const [ci, c] of (o.columns as unknown[]).entries()) {
        const inner = typeof c === 'object' && c !== null ? (c as { content?: unknown }).content : undefined;
        if (Array.isArray(inner))
          for (const [bi, ib] of inner.entries()) count(ib, [...path, 'columns', ci, 'content', bi]);
      }
    }
  };
  for (const [i, b] of content.entries()) count(b, [i]);

  return content.map((raw, i) => {
    const parsed = v1Block.safeParse(raw);
    if (!parsed.success) {
      const { field, message } = formatIssue(parsed.error.issues[0]!, (p) =>
        dottedPath(['content', i, ...p]),
      );
      throw apiRefusal('INVALID_REQUEST', message, { field });
    }
    const b = parsed.data as V1;
    if (b.type === 'columns') {
      const cols = b.columns as { width?: number; content: V1[] }[];
      const given = cols.filter((c) => c.width !== undefined);
      if (given.length > 0 && given.length < cols.length)
        fail(
          [i, 'columns'],
          `widths must be given for every column or for none, got ${given.length} of ${cols.length}`,
        );
      const total = given.reduce((s, c) => s + c.width!, 0);
      if (given.length > 0 && Math.abs(total - 100) > 0.01)
        fail([i, 'columns'], `widths must total 100, got ${total}`);
      return {
        type: 'columns',
        gap: columnGap,
        widths: shares(cols.map((c) => c.width)),
        columns: cols.map((c) => c.content.map(v1Leaf)),
      };
    }
    if (b.type === 'pageBreak') return { type: 'pageBreak' };
    return v1Leaf(b);
  });
}

function v1Leaf(b: V1): DocBlock {
  switch (b.type) {
    case 'paragraph':
      return { type: 'paragraph', text: b.text as string };
    case 'heading':
      return { type: 'heading', level: b.level as 1 | 2 | 3, text: b.text as string };
    case 'bulletList':
    case 'orderedList':
      return {
        type: 'list',
        ordered: b.type === 'orderedList',
        start: (b.start as number | undefined) ?? 1,
        items: b.items as string[],
      };
    case 'image':
      return {
        type: 'image',
        assetId: b.assetId as string,
        width: Number.parseFloat((b.width as string | undefined) ?? '100%') / 100,
        align: (b.align as 'left') ?? 'left',
      };
    case 'table': {
      const rows = b.rows as string[][];
      const n = Math.max(...rows.map((r) => r.length));
      return {
        type: 'table',
        header: null,
        widths: shares(Array(n).fill(undefined)),
        rows: rows.map((r) => [...r, ...Array(n - r.length).fill('')]),
      };
    }
    case 'spacer':
      return { type: 'spacer', height: b.height as number };
    default:
      return { type: 'divider' };
  }
}

// ---------------------------------------------------------------------------------------------
// Structured (v2) templates with `data`.

type TemplateBlock = StructuredTemplate['blocks'][number];

class DataError extends Refusal {
  constructor(path: (string | number)[], message: string) {
    const field = slashPath(path);
    super('invalid', `${field} ${message}`, { field, code: 'INVALID_TEMPLATE_DATA' });
  }
}

function dataString(value: unknown, path: (string | number)[], max: number): string {
  if (typeof value !== 'string') throw new DataError(path, `must be a string, got ${show(value)}`);
  if (value.length > max)
    throw new DataError(path, `must be at most ${grouped(max)} characters, got ${grouped(value.length)}`);
  const bad = badCharacter(value);
  if (bad) throw new DataError(path, `must be plain text: it holds ${bad.what}`);
  return value;
}

/** Table cells may be strings or finite numbers (a price); numbers are written as given. */
function cell(value: unknown, path: (string | number)[]): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string')
    throw new DataError(path, `must be a string or a number, got ${show(value)}`);
  return dataString(value, path, L.textChars);
}

/** The fields of `data` a structured template cannot do without: its dynamic blocks that are not optional. */
export function requiredFields(template: StructuredTemplate): string[] {
  const out: string[] = [];
  const walk = (bs: TemplateBlock[]) => {
    for (const b of bs) {
      if (b.type === 'columns') walk(b.columns.flatMap((c) => c.blocks as TemplateBlock[]));
      else if ('key' in b && b.key !== undefined && !b.static && !b.optional) out.push(b.key);
    }
  };
  walk(template.blocks);
  return out;
}

/**
 * A structured template's blocks with `data` filled in. Every dynamic block's key is looked up;
 * an absent optional field leaves its block out; any key the template does not define is refused.
 */
export function resolveStructured(template: StructuredTemplate, data: Record<string, unknown>): DocBlock[] {
  const known = new Set<string>();
  const walk = (bs: TemplateBlock[]) => {
    for (const b of bs) {
      if (b.type === 'columns') for (const c of b.columns) walk(c.blocks as TemplateBlock[]);
      else if ('key' in b && b.key !== undefined && !b.static) known.add(b.key);
    }
  };
  walk(template.blocks);
  for (const k of Object.keys(data)) {
    if (!known.has(k)) {
      const list = [...known];
      throw new DataError(
        [k],
        `is not a field of this template; its fields are ${list.length ? list.join(', ') : 'none (every block is static)'}`,
      );
    }
  }
  const out: DocBlock[] = [];
  for (const b of template.blocks) {
    const r = resolveBlock(b, data);
    if (r) out.push(r);
  }
  return out;
}

function resolveBlock(b: TemplateBlock, data: Record<string, unknown>): DocBlock | null {
  switch (b.type) {
    case 'divider':
      return { type: 'divider' };
    case 'spacer':
      return { type: 'spacer', height: b.height };
    case 'pageBreak':
      return { type: 'pageBreak' };
    case 'columns':
      return {
        type: 'columns',
        gap: b.gap,
        widths: shares(b.columns.map((c) => c.width)),
        columns: b.columns.map((c) =>
          (c.blocks as TemplateBlock[])
            .map((ib) => resolveBlock(ib, data))
            .filter((x): x is DocBlock => x !== null),
        ),
      };
  }
  let value: unknown;
  if (!b.static) {
    const key = b.key!;
    value = Object.hasOwn(data, key) ? data[key] : undefined;
    if (value === undefined) {
      if (b.optional) return null;
      throw new DataError([key], `is required (a ${b.type} block), got nothing`);
    }
  }
  const key = b.key ?? '';
  const look = { size: b.type !== 'image' && b.type !== 'table' ? b.style?.fontSize : undefined };
  switch (b.type) {
    case 'text':
      return {
        type: 'paragraph',
        text: b.static ? b.text! : dataString(value, [key], L.textChars),
        size: look.size,
        color: b.style?.color,
        align: b.style?.align,
      };
    case 'heading':
      return {
        type: 'heading',
        level: b.level as 1 | 2 | 3,
        text: b.static ? b.text! : dataString(value, [key], 1_000),
        size: look.size,
        color: b.style?.color,
        align: b.style?.align,
      };
    case 'list': {
      let items = b.items;
      if (!b.static) {
        if (!Array.isArray(value))
          throw new DataError([key], `must be an array of strings, got ${show(value)}`);
        if (value.length > L.listItems)
          throw new DataError([key], `must have at most ${L.listItems} items, got ${value.length}`);
        items = value.map((v, i) => dataString(v, [key, i], L.textChars));
      }
      return {
        type: 'list',
        ordered: b.ordered,
        start: 1,
        items: items!,
        size: look.size,
        color: b.style?.color,
      };
    }
    case 'image': {
      let assetId = b.assetId;
      if (!b.static) {
        const v = value as Record<string, unknown>;
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          throw new DataError([key], `must be an object { assetId }, got ${show(value)}`);
        const extra = Object.keys(v).find((k) => k !== 'assetId');
        if (extra) throw new DataError([key, extra], 'is not a known field; an image takes { assetId }');
        if (typeof v.assetId !== 'string' || !/^asset_[0-9A-Za-z]{22}$/.test(v.assetId)) {
          throw new DataError(
            [key, 'assetId'],
            `must be an asset id (asset_…) from POST /assets, got ${show(v.assetId)}`,
          );
        }
        assetId = v.assetId;
      }
      return { type: 'image', assetId: assetId!, width: b.width / 100, align: b.align };
    }
    case 'table': {
      const cols = b.columns;
      const keys = cols.map((c) => c.key);
      let rows: Record<string, unknown>[];
      if (b.static) rows = b.rows!;
      else {
        if (!Array.isArray(value))
          throw new DataError(
            [key],
            `must be an array of rows (objects with the keys ${keys.join(', ')}), got ${show(value)}`,
          );
        if (value.length > L.tableRows)
          throw new DataError([key], `must have at most ${L.tableRows} rows, got ${value.length}`);
        rows = value.map((row, i) => {
          if (typeof row !== 'object' || row === null || Array.isArray(row))
            throw new DataError(
              [key, i],
              `must be an object with the keys ${keys.join(', ')}, got ${show(row)}`,
            );
          const extra = Object.keys(row).find((k) => !keys.includes(k));
          if (extra)
            throw new DataError(
              [key, i, extra],
              `is not a column of this table; its columns are ${keys.join(', ')}`,
            );
          return row as Record<string, unknown>;
        });
      }
      const cells = rows.map((row, i) =>
        keys.map((k) => (!Object.hasOwn(row, k) || row[k] === undefined ? '' : cell(row[k], [key, i, k]))),
      );
      const header = cols.some((c) => c.title) ? cols.map((c) => c.title) : null;
      return { type: 'table', header, widths: shares(cols.map((c) => c.width)), rows: cells };
    }
  }
}

/** JSON Schema (2020-12) of one Document v1 content block, for the OpenAPI document. */
export function contentBlockJsonSchema(): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(v1Block, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return rest;
}
