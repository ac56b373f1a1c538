import { IMAGE_TYPES } from '../../domain/images.ts';
import { MOST_WAIT_SECONDS } from '../query.ts';
import { EXAMPLE_IDS } from './samples.ts';

import { day, id, moment, ref, type Schema } from './schemas.ts';

export const headers = {
  'X-Request-ID': { description: 'The request id (`req_…`) to quote to support.', schema: id('req') },
  'RateLimit-Policy': {
    description: 'The per-key limit: `"per-key";q=<requests>;w=<seconds>`.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of it: `"per-key";r=<left>;t=<seconds to reset>`.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait.', schema: { type: 'string' } },
  Location: {
    description: 'Where to poll the job: `/api/v1/generations/{id}`.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description:
      'Extension: `true` when this is the kept answer of an earlier request with the same Idempotency-Key, not a new one.',
    schema: { type: 'string', enum: ['true'] },
  },
};
export const standardHeaders = {
  'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};
export const limitedHeaders = { ...standardHeaders, RateLimit: { $ref: '#/components/headers/RateLimit' } };

/** A 200 whose body is a file of one type (a PDF, a ZIP). */
export const fileResponse = (description: string, type: string) => ({
  description,
  headers: limitedHeaders,
  content: { [type]: { schema: { type: 'string', contentMediaType: type } } },
});

export const errorResponse = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...limitedHeaders, ...extraHeaders },
  content: { 'application/json': { schema: ref('Error') } },
});

export const responses = {
  BadRequest: errorResponse(
    'INVALID_REQUEST: malformed input or a broken limit; the message names the field, the range and the value.',
  ),
  Unauthorized: errorResponse('INVALID_API_KEY or API_KEY_REVOKED.', {
    'WWW-Authenticate': {
      description: 'RFC 6750: the key is a Bearer token.',
      schema: { type: 'string', const: 'Bearer realm="api"' },
    },
  }),
  NotFound: errorResponse(
    "TEMPLATE_NOT_FOUND, GENERATION_NOT_FOUND, FONT_NOT_FOUND or ENDPOINT_NOT_FOUND (also for other accounts' objects and the other key mode).",
  ),
  TooLarge: errorResponse('INVALID_REQUEST: the body is over its limit (512 KiB JSON, 5 MiB image).'),
  Conflict: errorResponse('GENERATION_NOT_READY or PREVIEW_ONLY.'),
  Gone: errorResponse('GENERATION_EXPIRED: past the 7-day retention.'),
  TooMany: errorResponse(
    'RATE_LIMIT_EXCEEDED: wait Retry-After seconds; `reason` says which limit refused.',
    {
      'Retry-After': { $ref: '#/components/headers/Retry-After' },
    },
  ),
  Internal: errorResponse(
    'INTERNAL_ERROR (or RENDER_FAILED on renders, OUTPUT_DAMAGED on a download whose stored output is lost or altered): quote the request id.',
  ),
  Unavailable: errorResponse(
    'SERVICE_UNAVAILABLE (extension): storage cannot write or be reached now (a full disk, S3 away); nothing was changed. Wait Retry-After seconds.',
    { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  ),
};

export const common = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
  '413': { $ref: '#/components/responses/TooLarge' },
  '429': { $ref: '#/components/responses/TooMany' },
  '500': { $ref: '#/components/responses/Internal' },
  '503': { $ref: '#/components/responses/Unavailable' },
};

export const jsonOk = (
  description: string,
  schema: string,
  status = '200',
  extraHeaders: Record<string, unknown> = {},
  /** An example of this answer, where the schema's own (a finished job) would mislead. */
  example?: unknown,
) => ({
  [status]: {
    description,
    headers: { ...limitedHeaders, ...extraHeaders },
    content: { 'application/json': { schema: ref(schema), ...(example === undefined ? {} : { example }) } },
  },
});

/** What a new job looks like in the 202 of its POST: queued, nothing done yet. */
export const queuedJob = (kind: 'pdf' | 'preview') => ({
  id: EXAMPLE_IDS.generation,
  kind,
  status: 'queued',
  templateId: EXAMPLE_IDS.template,
  createdAt: '2026-11-24T16:19:40.378Z',
  metadata: { order: 'A-17' },
});

/** A POST whose first answer is kept under its Idempotency-Key: the header, its replays, its 409. */
export const replayed = { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } };
export const location = { Location: { $ref: '#/components/headers/Location' } };
export const idempotencyParam = { $ref: '#/components/parameters/IdempotencyKey' };
export const keyInUse = {
  '409': errorResponse(
    'IDEMPOTENCY_KEY_IN_USE (extension): the first request with this Idempotency-Key is still being answered; retry after Retry-After seconds.',
    { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  ),
};

export const idParam = (name: string, prefix: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: `a \`${prefix}_…\` id`,
});
export const listQuery = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
  {
    name: 'cursor',
    in: 'query',
    schema: { type: 'string' },
    description: 'nextCursor of the previous page.',
  },
];
/** `?wait=` and `?waitFor=` of the reads that can be held (src/app/waits.ts). */
export const holdQuery = [
  {
    name: 'wait',
    in: 'query',
    schema: { type: 'integer', minimum: 0, maximum: MOST_WAIT_SECONDS, default: 0 },
    description:
      'Extension: hold the answer up to this many seconds, until what it shows changes (its status, a count) or the work ends; one request of the per-key limit.',
  },
  {
    name: 'waitFor',
    in: 'query',
    schema: { type: 'string', enum: ['change', 'end'], default: 'change' },
    description:
      'Extension: with `wait`, `end` holds the answer until the work ends (or `wait` passes), not the first change.',
  },
];
export const jsonBody = (schema: string, example: unknown) => ({
  required: true,
  content: { 'application/json': { schema: ref(schema), example } },
});

export function operations(): Record<string, Record<string, Schema>> {
  return {
    '/templates': {
      get: {
        operationId: 'listTemplates',
        summary: "The caller's templates (key mode), newest first.",
        parameters: listQuery,
        responses: { ...jsonOk('A page.', 'TemplateList'), ...common },
      },
    },
    '/templates/{id}': {
      get: {
        operationId: 'getTemplate',
        summary: 'A template: the builder model (v2) or settings and fontIds (legacy v1).',
        parameters: [idParam('id', 'tpl')],
        responses: { ...jsonOk('The template.', 'Template'), ...common },
      },
    },
    '/fonts': {
      get: {
        operationId: 'listFonts',
        summary: 'Metadata of shared and personal fonts (never files, URLs or glyphs).',
        parameters: listQuery,
        responses: { ...jsonOk('A page.', 'FontList'), ...common },
      },
    },
    '/fonts/{fontId}/file': {
      get: {
        operationId: 'downloadFontFile',
        summary:
          "An extension: a font the key's account built from a hand, as a file for other software. Its drawings are reachable there: salt (all), ss01 and ss02 (each letter's second and third drawing), and calt and ss03 (a rotation: a letter after one in its first drawing takes its second, then its third). Another account's, a shared or an uploaded font: 404.",
        parameters: [
          idParam('fontId', 'font'),
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['otf', 'woff2'], default: 'otf' } },
        ],
        responses: {
          '200': {
            ...fileResponse('The font file, as an attachment named for the font.', 'font/otf'),
            content: Object.fromEntries(
              ['font/otf', 'font/woff2'].map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]),
            ),
          },
          ...common,
        },
      },
    },
    '/usage': {
      get: {
        operationId: 'getUsage',
        summary: 'Counts and sheets over a UTC date range, and the balance, for the key mode.',
        parameters: [
          {
            name: 'from',
            in: 'query',
            schema: day,
            description: 'Inclusive; default the first of the current month.',
          },
          {
            name: 'to',
            in: 'query',
            schema: day,
            description: 'Exclusive; default tomorrow (today inclusive). At most 366 days after from.',
          },
        ],
        responses: { ...jsonOk('The report.', 'Usage'), ...common },
      },
    },
    '/assets': {
      post: {
        operationId: 'uploadAsset',
        summary:
          'Uploads a private PNG or JPEG (5 MiB, 4096 px a side, 8 MP; 200 images and 100 MiB per account).',
        parameters: [idempotencyParam],
        requestBody: {
          required: true,
          content: Object.fromEntries(
            IMAGE_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]),
          ),
        },
        responses: { ...jsonOk('Stored.', 'Asset', '201', replayed), ...keyInUse, ...common },
      },
    },
    '/generations': {
      post: {
        operationId: 'createGeneration',
        summary: 'Queues a PDF job (exactly one of text, data, content).',
        parameters: [idempotencyParam],
        requestBody: jsonBody('GenerationRequest', {
          templateId: EXAMPLE_IDS.template,
          text: 'Dear Margaret, thank you for the lovely afternoon.',
          metadata: { order: 'A-17' },
        }),
        responses: {
          ...jsonOk('Queued.', 'Generation', '202', { ...location, ...replayed }, queuedJob('pdf')),
          ...keyInUse,
          '402': errorResponse('INSUFFICIENT_BALANCE.'),
          '403': errorResponse(
            'FONT_ACCESS_DENIED: the template uses a premium font the plan does not include.',
          ),
          ...common,
        },
      },
      get: {
        operationId: 'listGenerations',
        summary: 'Jobs of the key mode, newest first (extension).',
        parameters: [
          ...listQuery,
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['queued', 'processing', 'completed', 'failed', 'cancelled'] },
          },
          { name: 'kind', in: 'query', schema: { type: 'string', enum: ['pdf', 'preview'] } },
          {
            name: 'createdFrom',
            in: 'query',
            schema: moment,
            description:
              'Jobs created at or after this moment: a UTC date YYYY-MM-DD or a date-time with its offset (2026-11-24T15:00:00Z).',
          },
          {
            name: 'createdTo',
            in: 'query',
            schema: moment,
            description: 'Jobs created before this moment (exclusive), in the same forms.',
          },
        ],
        responses: { ...jsonOk('A page.', 'GenerationList'), ...common },
      },
    },
    '/generations/{id}': {
      get: {
        operationId: 'getGeneration',
        summary: 'A job.',
        parameters: [idParam('id', 'gen'), ...holdQuery],
        responses: { ...jsonOk('The job.', 'Generation'), ...common },
      },
    },
    '/generations/{id}/download': {
      get: {
        operationId: 'downloadGeneration',
        summary: 'The PDF of a completed job (owner key only).',
        parameters: [idParam('id', 'gen')],
        responses: {
          '200': fileResponse('The PDF.', 'application/pdf'),
          '409': { $ref: '#/components/responses/Conflict' },
          '410': { $ref: '#/components/responses/Gone' },
          ...common,
        },
      },
    },
    '/generations/{id}/cancel': {
      post: {
        operationId: 'cancelGeneration',
        summary: 'Cancels a queued or processing job without charge.',
        parameters: [idParam('id', 'gen')],
        responses: {
          ...jsonOk('The cancelled job.', 'Generation'),
          ...common,
        },
      },
    },
    '/generations/{id}/preview': {
      get: {
        operationId: 'getPreview',
        summary: 'The watermarked images of a completed preview job.',
        parameters: [idParam('id', 'gen')],
        responses: {
          ...jsonOk('The pages.', 'Preview'),
          '409': { $ref: '#/components/responses/Conflict' },
          '410': { $ref: '#/components/responses/Gone' },
          ...common,
        },
      },
    },
    '/previews': {
      post: {
        operationId: 'createPreview',
        summary: 'Queues a watermarked preview (4 pages at most; 3 new per minute per account).',
        parameters: [idempotencyParam],
        requestBody: jsonBody('PreviewRequest', {
          templateId: EXAMPLE_IDS.template,
          text: 'Dear Margaret, thank you for the lovely afternoon.',
        }),
        responses: {
          ...jsonOk('Queued.', 'Generation', '202', { ...location, ...replayed }, queuedJob('preview')),
          ...jsonOk('The unchanged earlier preview.', 'Generation', '200', replayed),
          ...keyInUse,
          ...common,
        },
      },
    },
    '/renders': {
      post: {
        operationId: 'render',
        summary: "One SVG or PNG image (or a pen plotter's strokes, extension), synchronously.",
        requestBody: jsonBody('RenderRequest', {
          templateId: EXAMPLE_IDS.template,
          text: 'Hello there',
          format: 'png',
          fontSize: 28,
        }),
        responses: {
          '200': {
            description: 'The image; `strokes` answers `image/svg+xml` too.',
            headers: {
              ...limitedHeaders,
              'X-Pen-Downs': {
                description:
                  'Extension, `strokes` only: how often the pen goes down on the page (its paths); also `data-pen-downs` on the root element.',
                schema: { type: 'integer', minimum: 0 },
              },
              'X-Pen-Up-Mm': {
                description:
                  'Extension, `strokes` only: how far the pen travels up between its paths, in mm on the page; also `data-pen-up-mm` on the root element.',
                schema: { type: 'number', minimum: 0 },
              },
            },
            content: {
              'image/svg+xml': { schema: { type: 'string' } },
              'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
            },
          },
          '402': errorResponse('INSUFFICIENT_BALANCE (credits mode).'),
          '403': errorResponse('RENDER_ACCESS_DENIED or FONT_ACCESS_DENIED.'),
          ...common,
          '503': errorResponse(
            'RENDER_DISABLED, or SERVICE_UNAVAILABLE (extension) while storage cannot be written or reached.',
            { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
          ),
        },
      },
    },
  };
}
