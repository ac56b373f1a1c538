// The OpenAPI document's schemas (components.schemas) and the small builders its parts share.
import { errorCatalog, limitReasons } from '../../domain/errors.ts';
import { IMAGE_TYPES } from '../../domain/images.ts';
import { contentBlockJsonSchema } from '../../domain/document.ts';
import { METADATA_LIMITS } from '../../domain/generation.ts';
import { BATCH_EVENT, TEST_EVENT, WEBHOOK_EVENTS } from '../../domain/webhooks.ts';
import { EXAMPLE_IDS } from './samples.ts';
import { templateJsonSchemas } from '../../domain/template.ts';

export type Schema = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const id = (prefix: string) => ({ type: 'string', pattern: `^${prefix}_[0-9A-Za-z]{22}$` });
export const date = { type: 'string', format: 'date-time' };
/** A calendar date (RFC 3339 full-date: 2026-02-30 is none). */
export const day = { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
/** A UTC date or an RFC 3339 date-time with its offset. */
export const moment = { anyOf: [day, { type: 'string', format: 'date-time' }] };
/** Text with something to write: not empty, not whitespace alone. */
export const written = { minLength: 1, pattern: '\\S' };
/** Exactly one of the job's input fields (spec §4: one content field per request). */
export const oneInput = {
  oneOf: [{ required: ['text'] }, { required: ['data'] }, { required: ['content'] }],
};
/** No control character: C0, DEL or C1 (U+0000-U+001F, U+007F-U+009F). */
export const noControls = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';
export const count = { type: 'integer', minimum: 0 };
export const sheets = {
  type: 'number',
  minimum: 0,
  description: 'API sheets; fractional values are possible (an A4 page is 1.5).',
};
export const obj = (
  properties: Record<string, unknown>,
  required = Object.keys(properties),
  extra: Schema = {},
) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  ...extra,
});
export const list = (item: string) =>
  obj({
    data: { type: 'array', items: ref(item) },
    hasMore: { type: 'boolean' },
    nextCursor: { type: ['string', 'null'] },
  });

export function schemas(): Record<string, unknown> {
  const t = templateJsonSchemas();
  const templateBase = {
    id: id('tpl'),
    name: { type: 'string' },
    mode: { type: 'string', enum: ['simple', 'structured', 'legacy'] },
    version: { type: 'integer', enum: [1, 2] },
    revision: { type: 'integer', minimum: 1 },
    createdAt: date,
    updatedAt: date,
  };
  return {
    Error: obj({
      error: obj(
        {
          code: { type: 'string', enum: Object.keys(errorCatalog).filter((c) => c !== 'GENERATION_FAILED') },
          message: { type: 'string' },
          requestId: id('req'),
          field: { type: 'string', description: 'The offending field, when one is to blame.' },
          reason: {
            type: 'string',
            enum: Object.keys(limitReasons),
            description: `Extension, on every 429: which limit refused (its policy is first in the RateLimit fields, with its true reset). ${Object.entries(
              limitReasons,
            )
              .map(([k, v]) => `\`${k}\`: ${v}`)
              .join(' ')}`,
          },
        },
        ['code', 'message', 'requestId'],
      ),
    }),
    Style: t.style,
    Block: t.block,
    LegacySettings: t.settings,
    TemplateSummary: obj(templateBase),
    Template: {
      oneOf: [
        obj({ ...templateBase, mode: { const: 'simple' }, version: { const: 2 }, style: ref('Style') }),
        obj({
          ...templateBase,
          mode: { const: 'structured' },
          version: { const: 2 },
          style: ref('Style'),
          blocks: { type: 'array', items: ref('Block') },
        }),
        obj({
          ...templateBase,
          mode: { const: 'legacy' },
          version: { const: 1 },
          settings: ref('LegacySettings'),
          fontIds: { type: 'array', items: id('font') },
        }),
      ],
    },
    TemplateList: list('TemplateSummary'),
    Font: obj({
      id: id('font'),
      name: { type: 'string' },
      family: { type: 'string' },
      personal: { type: 'boolean', description: "The account's own font (otherwise shared)." },
      fromHand: {
        type: 'boolean',
        description: 'Built from a hand (a filled sample sheet): its file is GET /fonts/{fontId}/file.',
      },
      premium: { type: 'boolean', description: 'Needs a plan with premium fonts.' },
      usable: { type: 'boolean', description: "Whether the caller's plan may use it now." },
      scripts: {
        type: 'array',
        items: { type: 'string' },
        description: 'Writing systems it covers (ISO 15924 names).',
      },
      glyphCount: count,
      license: { type: 'string' },
      createdAt: date,
    }),
    FontList: list('Font'),
    Balance: obj({
      mode: { type: 'string', enum: ['live', 'test'] },
      subscription: obj({
        plan: { type: 'string' },
        name: { type: 'string' },
        periodDays: { type: ['integer', 'null'] },
        periodStart: date,
        periodEnd: date,
        sheetsPerPeriod: sheets,
        sheetsUsed: sheets,
        sheetsLeft: sheets,
        pagesPerDay: count,
        premiumFonts: { type: 'boolean' },
        renderAccess: { type: 'boolean' },
      }),
      extraSheets: sheets,
      availableSheets: sheets,
      usage: obj({ pagesToday: count, pagesThisPeriod: count }),
    }),
    Usage: obj({
      mode: { type: 'string', enum: ['live', 'test'] },
      period: obj({
        from: day,
        to: { ...day, description: 'Exclusive.' },
        days: { type: 'integer', minimum: 1 },
      }),
      requests: count,
      generations: count,
      successfulGenerations: count,
      failedGenerations: count,
      cancelledGenerations: count,
      pages: count,
      creditsSpent: sheets,
      renders: count,
      svgRenders: count,
      pngRenders: count,
      previews: count,
      balance: ref('Balance'),
    }),
    Asset: obj({
      id: id('asset'),
      type: { type: 'string', enum: [...IMAGE_TYPES] },
      width: { type: 'integer', minimum: 1 },
      height: { type: 'integer', minimum: 1 },
      bytes: { type: 'integer', minimum: 1 },
      createdAt: date,
    }),
    Generation: obj(
      {
        id: id('gen'),
        kind: { type: 'string', enum: ['pdf', 'preview'] },
        status: { type: 'string', enum: ['queued', 'processing', 'completed', 'failed', 'cancelled'] },
        templateId: id('tpl'),
        createdAt: date,
        startedAt: date,
        completedAt: date,
        cancelledAt: date,
        expiresAt: date,
        pages: { type: 'integer', minimum: 1 },
        creditsSpent: sheets,
        downloadUrl: {
          type: 'string',
          description: 'Relative (/api/v1/generations/{id}/download) or an absolute http(s) URL.',
        },
        previewUrl: {
          type: 'string',
          description:
            'A completed preview: where its images are (/api/v1/generations/{id}/preview). Extension.',
        },
        error: obj({
          code: { type: 'string', enum: ['GENERATION_FAILED', 'INSUFFICIENT_BALANCE'] },
          message: { type: 'string' },
        }),
        batchId: { ...id('bat'), description: 'Extension: the batch this job is a row of.' },
        row: {
          type: 'integer',
          minimum: 0,
          description: "Extension: a batch row's index in its batch, from 0.",
        },
        part: {
          type: 'string',
          enum: ['letter', 'envelope'],
          description: "Extension: which of its row's documents a batch's job is.",
        },
        metadata: ref('Metadata'),
      },
      ['id', 'kind', 'status', 'templateId', 'createdAt', 'metadata'],
      {
        examples: [
          {
            id: EXAMPLE_IDS.generation,
            kind: 'pdf',
            status: 'completed',
            templateId: EXAMPLE_IDS.template,
            createdAt: '2026-11-24T16:19:40.378Z',
            startedAt: '2026-11-24T16:19:40.388Z',
            completedAt: '2026-11-24T16:19:41.421Z',
            expiresAt: '2026-12-01T16:19:41.421Z',
            pages: 3,
            creditsSpent: 4.5,
            downloadUrl: `/api/v1/generations/${EXAMPLE_IDS.generation}/download`,
            metadata: { order: 'A-17' },
          },
        ],
      },
    ),
    Metadata: {
      type: 'object',
      maxProperties: METADATA_LIMITS.keys,
      propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyChars, pattern: noControls },
      additionalProperties: { type: 'string', maxLength: METADATA_LIMITS.valueChars, pattern: noControls },
      description: `Extension: your own labels for the job (an order number, a customer id), echoed on the job and in its webhook events: at most ${METADATA_LIMITS.keys} keys of 1-${METADATA_LIMITS.keyChars} characters, string values of at most ${METADATA_LIMITS.valueChars} characters, no control characters. Empty when none was sent.`,
    },
    GenerationList: list('Generation'),
    WebhookEvent: obj({
      id: id('evt'),
      type: { type: 'string', enum: WEBHOOK_EVENTS.filter((e) => e !== BATCH_EVENT) },
      createdAt: date,
      data: obj({ generation: ref('Generation') }),
    }),
    WebhookTestEvent: obj({
      id: id('evt'),
      type: { type: 'string', const: TEST_EVENT },
      createdAt: date,
      data: obj({
        endpoint: obj({
          id: { type: 'string', pattern: '^hook_' },
          url: { type: 'string', format: 'uri' },
          mode: { type: 'string', enum: ['live', 'test'] },
        }),
      }),
    }),
    GenerationRequest: obj(
      {
        templateId: id('tpl'),
        text: {
          type: 'string',
          ...written,
          maxLength: 100_000,
          description: 'Simple Text templates; 4,000 characters without a subscription.',
        },
        data: {
          type: 'object',
          additionalProperties: true,
          description: 'Structured templates: values of the dynamic blocks by key.',
        },
        content: {
          type: 'array',
          items: ref('ContentBlock'),
          maxItems: 200,
          description: 'Legacy Document v1 templates only: blocks (spec §2) within the limits of spec §8.',
        },
        overrides: {
          type: 'object',
          additionalProperties: true,
          description:
            'Legacy Document v1 templates only: settings of the template to change for this job (not the page: size, orientation, paper, background). Version 2 templates refuse it.',
        },
        metadata: ref('Metadata'),
      },
      ['templateId'],
      oneInput,
    ),
    PreviewRequest: obj(
      {
        templateId: id('tpl'),
        text: { type: 'string', ...written, maxLength: 100_000 },
        data: { type: 'object', additionalProperties: true },
        content: { type: 'array', items: ref('ContentBlock'), maxItems: 200 },
        metadata: ref('Metadata'),
      },
      ['templateId'],
      oneInput,
    ),
    ContentBlock: contentBlockJsonSchema(),
    Preview: obj({
      id: id('gen'),
      pages: {
        type: 'array',
        maxItems: 4,
        items: obj({
          page: { type: 'integer', minimum: 1 },
          width: { type: 'integer' },
          height: { type: 'integer' },
          contentType: { const: 'image/png' },
          data: { type: 'string', contentEncoding: 'base64' },
        }),
      },
    }),
    RenderRequest: obj(
      {
        templateId: id('tpl'),
        text: {
          type: 'string',
          ...written,
          maxLength: 3000,
          description: 'Up to 20 lines including wrapping.',
        },
        format: {
          type: 'string',
          enum: ['svg', 'png', 'strokes'],
          description:
            "`svg`: letter outlines; `png`: an image rendered on the server at 144 DPI; `strokes` (extension): for pen plotters and writing robots, an SVG of the letters' centrelines as stroked paths in writing order, one path per pen-down movement, with no fills and no paper (width and height in mm).",
        },
        fontSize: {
          type: 'number',
          minimum: 6,
          maximum: 96,
          description: 'pt; the only permitted override.',
        },
      },
      ['templateId', 'text', 'format'],
    ),
  };
}
