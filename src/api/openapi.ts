// The OpenAPI 3.1 document of the whole public API (spec §4), served at /api/v1/openapi.json.
// The HTTP tests validate every response they receive against this document, so it cannot drift.
import { errorCatalog, limitReasons } from '../domain/errors.ts';
import { IMAGE_TYPES } from '../domain/images.ts';
import { contentBlockJsonSchema } from '../domain/document.ts';
import { METADATA_LIMITS } from '../domain/generation.ts';
import { TEST_EVENT, WEBHOOK_EVENTS } from '../domain/webhooks.ts';
import { codeSamples, EXAMPLE_IDS, QUICKSTART, TAGS } from './openapi-samples.ts';
import { templateJsonSchemas } from '../domain/template.ts';

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const id = (prefix: string) => ({ type: 'string', pattern: `^${prefix}_[0-9A-Za-z]{22}$` });
const date = { type: 'string', format: 'date-time' };
/** A calendar date (RFC 3339 full-date: 2026-02-30 is none). */
const day = { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
/** A UTC date or an RFC 3339 date-time with its offset. */
const moment = { anyOf: [day, { type: 'string', format: 'date-time' }] };
/** Text with something to write: not empty, not whitespace alone. */
const written = { minLength: 1, pattern: '\\S' };
/** Exactly one of the job's input fields (spec §4: one content field per request). */
const oneInput = {
  oneOf: [{ required: ['text'] }, { required: ['data'] }, { required: ['content'] }],
};
/** No control character: C0, DEL or C1 (U+0000-U+001F, U+007F-U+009F). */
const noControls = '^[^\\u0000-\\u001f\\u007f-\\u009f]*$';
const count = { type: 'integer', minimum: 0 };
const sheets = {
  type: 'number',
  minimum: 0,
  description: 'API sheets; fractional values are possible (an A4 page is 1.5).',
};
const obj = (
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
const list = (item: string) =>
  obj({
    data: { type: 'array', items: ref(item) },
    hasMore: { type: 'boolean' },
    nextCursor: { type: ['string', 'null'] },
  });

function schemas(): Record<string, unknown> {
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
      type: { type: 'string', enum: [...WEBHOOK_EVENTS] },
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

const headers = {
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
const standardHeaders = {
  'X-Request-ID': { $ref: '#/components/headers/X-Request-ID' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
};
const limitedHeaders = { ...standardHeaders, RateLimit: { $ref: '#/components/headers/RateLimit' } };

const errorResponse = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...limitedHeaders, ...extraHeaders },
  content: { 'application/json': { schema: ref('Error') } },
});

const responses = {
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

const common = {
  '400': { $ref: '#/components/responses/BadRequest' },
  '401': { $ref: '#/components/responses/Unauthorized' },
  '404': { $ref: '#/components/responses/NotFound' },
  '413': { $ref: '#/components/responses/TooLarge' },
  '429': { $ref: '#/components/responses/TooMany' },
  '500': { $ref: '#/components/responses/Internal' },
  '503': { $ref: '#/components/responses/Unavailable' },
};

const jsonOk = (
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
const queuedJob = (kind: 'pdf' | 'preview') => ({
  id: EXAMPLE_IDS.generation,
  kind,
  status: 'queued',
  templateId: EXAMPLE_IDS.template,
  createdAt: '2026-11-24T16:19:40.378Z',
  metadata: { order: 'A-17' },
});

/** A POST whose first answer is kept under its Idempotency-Key: the header, its replays, its 409. */
const replayed = { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } };
const location = { Location: { $ref: '#/components/headers/Location' } };
const idempotencyParam = { $ref: '#/components/parameters/IdempotencyKey' };
const keyInUse = {
  '409': errorResponse(
    'IDEMPOTENCY_KEY_IN_USE (extension): the first request with this Idempotency-Key is still being answered; retry after Retry-After seconds.',
    { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  ),
};

const idParam = (name: string, prefix: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: `a \`${prefix}_…\` id`,
});
const listQuery = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
  {
    name: 'cursor',
    in: 'query',
    schema: { type: 'string' },
    description: 'nextCursor of the previous page.',
  },
];
const jsonBody = (schema: string, example: unknown) => ({
  required: true,
  content: { 'application/json': { schema: ref(schema), example } },
});

function operations(): Record<string, Record<string, Schema>> {
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
        parameters: [idParam('id', 'gen')],
        responses: { ...jsonOk('The job.', 'Generation'), ...common },
      },
    },
    '/generations/{id}/download': {
      get: {
        operationId: 'downloadGeneration',
        summary: 'The PDF of a completed job (owner key only).',
        parameters: [idParam('id', 'gen')],
        responses: {
          '200': {
            description: 'The PDF.',
            headers: limitedHeaders,
            content: {
              'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
            },
          },
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
            headers: limitedHeaders,
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

/** Extension: the events an endpoint registered by the operator receives (docs/webhooks.md). */
function webhooks(): Record<string, unknown> {
  const signature = {
    name: 'Scriptorium-Signature',
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`; verify it over the raw body before parsing (verifyWebhook in scriptorium/client) and refuse a t more than 300 s away.',
  };
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    schema: { type: 'string' },
    description,
  });
  const event = (type: string, summary: string, schema = 'WebhookEvent') => ({
    post: {
      operationId: `webhook_${type.replace('.', '_')}`,
      tags: ['Webhooks'],
      summary,
      parameters: [
        signature,
        header(
          'Scriptorium-Event-Id',
          'The event id (`evt_…`), the same in every delivery of it: process each id once.',
        ),
        header('Scriptorium-Event-Type', type),
        header('Scriptorium-Delivery-Id', 'This delivery (`dlv_…`), one per event and endpoint.'),
        header('Scriptorium-Attempt', 'Which try this is, from 1.'),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
      responses: {
        '2XX': {
          description:
            'Received: the delivery is done. Anything else (or no answer within 10 s) is tried again: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h.',
        },
      },
    },
  });
  return {
    'generation.completed': event(
      'generation.completed',
      'A PDF job completed: its pages, sheets and downloadUrl are in data.generation.',
    ),
    'generation.failed': event(
      'generation.failed',
      'A PDF job failed (GENERATION_FAILED or INSUFFICIENT_BALANCE in data.generation.error); nothing was charged.',
    ),
    'preview.completed': event(
      'preview.completed',
      'A preview completed: its images are at data.generation.previewUrl.',
    ),
    'preview.failed': event('preview.failed', 'A preview failed.'),
    [TEST_EVENT]: event(
      TEST_EVENT,
      "Sent on demand from the dashboard's webhook page to one endpoint, to see deliveries arrive; it names the endpoint and no job.",
      'WebhookTestEvent',
    ),
  };
}

const TAG_OF: Record<string, (typeof TAGS)[number]['name']> = {
  listTemplates: 'Templates',
  getTemplate: 'Templates',
  listFonts: 'Fonts',
  getUsage: 'Usage',
  uploadAsset: 'Assets',
  createGeneration: 'Generations',
  listGenerations: 'Generations',
  getGeneration: 'Generations',
  downloadGeneration: 'Generations',
  cancelGeneration: 'Generations',
  createPreview: 'Previews',
  getPreview: 'Previews',
  render: 'Renders',
};

export function openApiDocument(): Schema {
  const paths = operations();
  for (const ops of Object.values(paths))
    for (const op of Object.values(ops)) {
      const id = op.operationId as string;
      op.tags = [TAG_OF[id]];
      op['x-codeSamples'] = codeSamples(id);
    }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scriptorium handwriting rendering API',
      version: '1.0.0',
      description: QUICKSTART,
    },
    tags: TAGS,
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
    paths,
    webhooks: webhooks(),
    components: {
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: '`hw_live_…` or `hw_test_…`; 10 requests per minute per key.',
        },
      },
      schemas: schemas(),
      headers,
      responses,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
          description:
            'Extension: a key of your choice (a UUID) that makes a retry safe. The first answer is kept 24 hours for the account and key mode; the same key with the same body gets it again (`Idempotent-Replayed: true`), with another body 400, while the first is still running 409 IDEMPOTENCY_KEY_IN_USE. An answer that is an error is not kept: the retry runs again.',
        },
      },
    },
  };
}
