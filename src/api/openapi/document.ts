import { BATCH_EVENT, TEST_EVENT } from '../../domain/webhooks.ts';
import { codeSamples, QUICKSTART, TAGS } from './samples.ts';

import { batchOperations, batchSchemas } from './batches.ts';
import { headers, operations, responses } from './operations.ts';
import { ref, type Schema, schemas } from './schemas.ts';

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
    [BATCH_EVENT]: event(
      BATCH_EVENT,
      "Every row of a batch ended (extension): its counts, pages, sheets and the ZIP's downloadUrl are in data.batch. A cancelled batch sends none.",
      'BatchEvent',
    ),
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
  downloadFontFile: 'Fonts',
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
  createBatch: 'Batches',
  listBatches: 'Batches',
  getBatch: 'Batches',
  listBatchRows: 'Batches',
  cancelBatch: 'Batches',
  downloadBatch: 'Batches',
  mergeBatch: 'Batches',
};

export function openApiDocument(): Schema {
  const paths = { ...operations(), ...batchOperations() };
  for (const ops of Object.values(paths))
    for (const op of Object.values(ops)) {
      const id = op.operationId as string;
      const tag = TAG_OF[id];
      if (!tag) throw new Error(`no tag for ${id}`);
      op.tags = [tag];
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
      schemas: { ...schemas(), ...batchSchemas() },
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
