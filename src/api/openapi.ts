// The OpenAPI 3.1 document of the whole public API (spec §4), served at /api/v1/openapi.json.
// The HTTP tests validate every response they receive against this document, so it cannot drift.
import { errorCatalog } from '../domain/errors.ts';
import { IMAGE_TYPES } from '../domain/images.ts';
import { contentBlockJsonSchema } from '../domain/document.ts';
import { templateJsonSchemas } from '../domain/template.ts';

type Schema = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const id = (prefix: string) => ({ type: 'string', pattern: `^${prefix}_[0-9A-Za-z]{22}$` });
const date = { type: 'string', format: 'date-time' };
const day = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
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
      },
      ['id', 'kind', 'status', 'templateId', 'createdAt'],
    ),
    GenerationList: list('Generation'),
    GenerationRequest: obj(
      {
        templateId: id('tpl'),
        text: {
          type: 'string',
          maxLength: 100_000,
          description: 'Simple Text templates; 4,000 characters without a subscription.',
        },
        data: { type: 'object', description: 'Structured templates: values of the dynamic blocks by key.' },
        content: {
          type: 'array',
          items: ref('ContentBlock'),
          maxItems: 200,
          description: 'Legacy Document v1 templates only: blocks (spec §2) within the limits of spec §8.',
        },
        overrides: {
          type: 'object',
          description:
            'Legacy Document v1 templates only: settings of the template to change for this job (not the page: size, orientation, paper, background). Version 2 templates refuse it.',
        },
      },
      ['templateId'],
    ),
    PreviewRequest: obj(
      {
        templateId: id('tpl'),
        text: { type: 'string' },
        data: { type: 'object' },
        content: { type: 'array', items: ref('ContentBlock'), maxItems: 200 },
      },
      ['templateId'],
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
        text: { type: 'string', maxLength: 3000, description: 'Up to 20 lines including wrapping.' },
        format: { type: 'string', enum: ['svg', 'png'] },
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
  Unauthorized: errorResponse('INVALID_API_KEY or API_KEY_REVOKED.'),
  NotFound: errorResponse(
    "TEMPLATE_NOT_FOUND, GENERATION_NOT_FOUND, FONT_NOT_FOUND or ENDPOINT_NOT_FOUND (also for other accounts' objects and the other key mode).",
  ),
  TooLarge: errorResponse('INVALID_REQUEST: the body is over its limit (512 KiB JSON, 5 MiB image).'),
  Conflict: errorResponse('GENERATION_NOT_READY or PREVIEW_ONLY.'),
  Gone: errorResponse('GENERATION_EXPIRED: past the 7-day retention.'),
  TooMany: errorResponse('RATE_LIMIT_EXCEEDED: wait Retry-After seconds.', {
    'Retry-After': { $ref: '#/components/headers/Retry-After' },
  }),
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

const jsonOk = (description: string, schema: string, status = '200') => ({
  [status]: {
    description,
    headers: limitedHeaders,
    content: { 'application/json': { schema: ref(schema) } },
  },
});

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
const jsonBody = (schema: string) => ({
  required: true,
  content: { 'application/json': { schema: ref(schema) } },
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
        requestBody: {
          required: true,
          content: Object.fromEntries(
            IMAGE_TYPES.map((t) => [t, { schema: { type: 'string', contentMediaType: t } }]),
          ),
        },
        responses: { ...jsonOk('Stored.', 'Asset', '201'), ...common },
      },
    },
    '/generations': {
      post: {
        operationId: 'createGeneration',
        summary: 'Queues a PDF job (exactly one of text, data, content).',
        requestBody: jsonBody('GenerationRequest'),
        responses: {
          ...jsonOk('Queued.', 'Generation', '202'),
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
        parameters: [...listQuery, { name: 'status', in: 'query', schema: { type: 'string' } }],
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
        requestBody: jsonBody('PreviewRequest'),
        responses: {
          ...jsonOk('Queued.', 'Generation', '202'),
          ...jsonOk('The unchanged earlier preview.', 'Generation'),
          ...common,
        },
      },
    },
    '/renders': {
      post: {
        operationId: 'render',
        summary: 'One SVG or PNG image, synchronously.',
        requestBody: jsonBody('RenderRequest'),
        responses: {
          '200': {
            description: 'The image.',
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

export function openApiDocument(): Schema {
  const paths = operations();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scriptorium handwriting rendering API',
      version: '1.0.0',
      description:
        'Handwriting-styled PDFs (asynchronous jobs), SVG and PNG images (synchronous), previews, templates, fonts, assets and usage.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
    paths,
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
    },
  };
}
