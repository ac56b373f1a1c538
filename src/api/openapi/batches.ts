// The OpenAPI document's part for batches (an extension beyond the spec, docs/batches.md): the
// operations, their schemas and the batch's webhook event.
import { BATCH_LIMITS, SEED_MAX } from '../../domain/batch.ts';
import { grouped } from '../../domain/errors.ts';
import { BATCH_EVENT } from '../../domain/webhooks.ts';
import {
  common,
  errorResponse,
  idempotencyParam,
  idParam,
  jsonBody,
  jsonOk,
  keyInUse,
  fileResponse,
  holdQuery,
  listQuery,
  location,
  replayed,
} from './operations.ts';
import { EXAMPLE_IDS } from './samples.ts';
import { count, date, id, list, obj, ref, type Schema, schemas, sheets } from './schemas.ts';

const STATUSES = ['queued', 'processing', 'completed', 'cancelled'];
const ROWS = grouped(BATCH_LIMITS.rows);

/** What a new batch looks like in the 202 of its POST: queued, every row waiting. */
const queuedBatch = {
  id: EXAMPLE_IDS.batch,
  status: 'queued',
  templateId: EXAMPLE_IDS.template,
  createdAt: '2026-11-24T16:19:40.378Z',
  updatedAt: '2026-11-24T16:19:40.378Z',
  rows: { total: 2, queued: 2, processing: 0, completed: 0, failed: 0, cancelled: 0 },
  pages: 0,
  creditsSpent: 0,
  rowsUrl: `/api/v1/batches/${EXAMPLE_IDS.batch}/rows`,
  metadata: {},
};

export function batchSchemas(): Record<string, Schema> {
  const job = schemas().Generation as { properties: Record<string, unknown>; required: string[] };
  const seed = {
    type: 'integer',
    minimum: 0,
    maximum: SEED_MAX,
    description: "The hand's seed it is written with.",
  };
  const partCounts = obj({
    total: count,
    queued: count,
    processing: count,
    completed: count,
    failed: count,
    cancelled: count,
  });
  return {
    BatchRequest: obj(
      {
        templateId: id('tpl'),
        rows: {
          type: 'array',
          minItems: 1,
          maxItems: BATCH_LIMITS.rows,
          items: ref('BatchRowRequest'),
          description: `1-${ROWS} rows, each what one generation of the template takes.`,
        },
        csv: {
          type: 'string',
          minLength: 1,
          description: `CSV text (RFC 4180): a header row, then 1-${ROWS} rows. Columns: \`text\` (simple templates); data fields by path (\`name\`, \`address.city\`, \`items[0]\`, \`lines[2].price\`, \`logo.assetId\`); \`seed\`; \`metadata.KEY\`. An empty cell leaves its field out.`,
        },
        metadata: ref('Metadata'),
        envelope: obj({ templateId: id('tpl') }, ['templateId'], {
          description:
            'An envelope for every row, written in this template (an envelope size such as DL, in landscape); each row then carries `envelope` (CSV: columns `envelope.<field>`). Each envelope is a document of its own, billed by its size.',
        }),
        rowEvents: {
          type: 'boolean',
          description:
            "true: every row's own end is a webhook event too (generation.completed, generation.failed); batch.completed comes either way. Default false.",
        },
        merge: {
          type: 'boolean',
          description:
            'true: once the batch ended, `GET /batches/{id}/merged` gives every completed row as one PDF in row order. Default false.',
        },
      },
      ['templateId'],
      { oneOf: [{ required: ['rows'] }, { required: ['csv'] }] },
    ),
    BatchRowRequest: obj(
      {
        text: { type: 'string', minLength: 1 },
        data: { type: 'object', additionalProperties: true },
        content: { type: 'array', items: ref('ContentBlock') },
        metadata: ref('Metadata'),
        seed: {
          type: 'integer',
          minimum: 0,
          maximum: SEED_MAX,
          description:
            "The hand's seed for this row; by default one derived from the batch and the row, so the same row always draws the same.",
        },
        envelope: {
          type: 'object',
          additionalProperties: false,
          properties: {
            text: { type: 'string', minLength: 1 },
            data: { type: 'object', additionalProperties: true },
            content: { type: 'array', items: ref('ContentBlock') },
          },
          description: "With a batch's envelope template: the envelope's input (what that template takes).",
        },
      },
      [],
      { oneOf: [{ required: ['text'] }, { required: ['data'] }, { required: ['content'] }] },
    ),
    Batch: obj(
      {
        id: id('bat'),
        status: {
          type: 'string',
          enum: STATUSES,
          description:
            '`completed` once every row ended, even where some failed; `cancelled` after a cancel.',
        },
        templateId: id('tpl'),
        createdAt: date,
        updatedAt: date,
        completedAt: date,
        cancelledAt: date,
        expiresAt: {
          ...date,
          description: "When the first completed row's PDF expires (7 days after it completed).",
        },
        rows: { ...partCounts, description: "Its rows (each row's letter) by status." },
        envelopeTemplateId: id('tpl'),
        envelopes: {
          ...partCounts,
          description: "With an envelope template: each row's envelope by status.",
        },
        pages: { ...count, description: 'Pages of the completed documents so far, envelopes included.' },
        creditsSpent: sheets,
        rowsUrl: { type: 'string' },
        downloadUrl: {
          type: 'string',
          description: 'Once the batch ended with some row completed: the ZIP of their PDFs.',
        },
        merge: { type: 'boolean', description: 'Present (true) when the batch was sent with `merge: true`.' },
        mergedUrl: {
          type: 'string',
          description: 'With `merge: true`, once the batch ended with some row completed: their PDFs as one.',
        },
        metadata: ref('Metadata'),
      },
      [
        'id',
        'status',
        'templateId',
        'createdAt',
        'updatedAt',
        'rows',
        'pages',
        'creditsSpent',
        'rowsUrl',
        'metadata',
      ],
    ),
    BatchList: list('Batch'),
    BatchRowList: list('BatchRow'),
    BatchRow: obj({ ...job.properties, seed, envelope: ref('BatchEnvelope') }, [...job.required, 'seed'], {
      description:
        "A row: its letter's job (with batchId, row and part), its seed, and its envelope's job when it has one.",
    }),
    BatchEnvelope: obj({ ...job.properties, seed }, [...job.required, 'seed']),
    BatchEvent: obj({
      id: id('evt'),
      type: { type: 'string', const: BATCH_EVENT },
      createdAt: date,
      data: obj({ batch: ref('Batch') }),
    }),
  };
}

export function batchOperations(): Record<string, Record<string, Schema>> {
  const batchId = idParam('id', 'bat');
  return {
    '/batches': {
      post: {
        operationId: 'createBatch',
        summary: `Extension: queues up to ${ROWS} documents of one template at once (JSON rows or CSV); the batch is one unfinished job. Body up to 32 MiB.`,
        parameters: [idempotencyParam],
        requestBody: jsonBody('BatchRequest', {
          templateId: EXAMPLE_IDS.template,
          rows: [
            { text: 'Dear Margaret, thank you for the lovely afternoon.', metadata: { name: 'margaret' } },
            { text: 'Dear Tom, thank you for the flowers.', metadata: { name: 'tom' } },
          ],
        }),
        responses: {
          ...jsonOk('Queued.', 'Batch', '202', { ...location, ...replayed }, queuedBatch),
          ...keyInUse,
          '402': errorResponse(
            'INSUFFICIENT_BALANCE: the allowance and balance do not cover one page a row.',
          ),
          '403': errorResponse(
            'FONT_ACCESS_DENIED: the template uses a premium font the plan does not include.',
          ),
          ...common,
        },
      },
      get: {
        operationId: 'listBatches',
        summary: 'Extension: batches of the key mode, newest first.',
        parameters: listQuery,
        responses: { ...jsonOk('A page.', 'BatchList'), ...common },
      },
    },
    '/batches/{id}': {
      get: {
        operationId: 'getBatch',
        summary: 'Extension: a batch, with its rows counted by status.',
        parameters: [batchId, ...holdQuery],
        responses: { ...jsonOk('The batch.', 'Batch'), ...common },
      },
    },
    '/batches/{id}/rows': {
      get: {
        operationId: 'listBatchRows',
        summary: 'Extension: its rows in row order, each its job and its seed.',
        parameters: [
          batchId,
          ...listQuery,
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['queued', 'processing', 'completed', 'failed', 'cancelled'] },
          },
        ],
        responses: { ...jsonOk('A page.', 'BatchRowList'), ...common },
      },
    },
    '/batches/{id}/cancel': {
      post: {
        operationId: 'cancelBatch',
        summary: 'Extension: cancels the rows not yet started, uncharged; rows already running finish.',
        parameters: [batchId],
        responses: {
          ...jsonOk('The batch (400 INVALID_REQUEST for a completed one, unchanged).', 'Batch'),
          ...common,
        },
      },
    },
    '/batches/{id}/download': {
      get: {
        operationId: 'downloadBatch',
        summary:
          "Extension: one ZIP of every completed row's PDF in row order (entries `00042.pdf`, or `00042-<metadata value>.pdf` with `?name=`), streamed.",
        parameters: [
          batchId,
          {
            name: 'name',
            in: 'query',
            schema: { type: 'string' },
            description: "A metadata key: each entry's name adds that row's value after its index.",
          },
        ],
        responses: {
          '200': fileResponse('The ZIP.', 'application/zip'),
          '409': errorResponse('GENERATION_NOT_READY: the batch is still running, or no row completed.'),
          '410': { $ref: '#/components/responses/Gone' },
          ...common,
        },
      },
    },
    '/batches/{id}/merged': {
      get: {
        operationId: 'mergeBatch',
        summary:
          "Extension: for a batch sent with `merge: true`, every completed row's PDF (or envelope, with `?part=envelope`) as one PDF in row order, merged as it is sent (chunked: no Content-Length).",
        parameters: [
          batchId,
          {
            name: 'part',
            in: 'query',
            schema: { type: 'string', enum: ['letter', 'envelope'], default: 'letter' },
            description: "`envelope`: the rows' envelopes instead of their letters.",
          },
        ],
        responses: {
          '200': fileResponse('The PDF.', 'application/pdf'),
          '409': errorResponse(
            'GENERATION_NOT_READY: the batch is still running, no row completed, or it was sent without `merge: true`.',
          ),
          '410': { $ref: '#/components/responses/Gone' },
          ...common,
        },
      },
    },
  };
}
