// The client's types are generated from the OpenAPI document and may not drift from it; every
// operation of the document has a method on the client.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { clientTypes } from '../../scripts/client-types.ts';
import { openApiDocument } from '../../src/api/openapi/document.ts';
import { Scriptorium } from '../../src/client/index.ts';

t.test('src/client/schema.ts is what the OpenAPI document generates', async (t) => {
  const file = readFileSync(new URL('../../src/client/schema.ts', import.meta.url), 'utf8');
  t.ok(file.includes('createGeneration'), 'it holds the operations');
  t.equal(file, await clientTypes(), 'in sync: run npm run client:types');
});

const METHODS: Record<string, string> = {
  listTemplates: 'templates.list',
  getTemplate: 'templates.get',
  listFonts: 'fonts.list',
  downloadFontFile: 'fonts.file',
  getUsage: 'usage.get',
  uploadAsset: 'assets.upload',
  createGeneration: 'generations.create',
  listGenerations: 'generations.list',
  getGeneration: 'generations.get',
  downloadGeneration: 'generations.download',
  cancelGeneration: 'generations.cancel',
  getPreview: 'previews.get',
  createPreview: 'previews.create',
  render: 'renders.create',
  createBatch: 'batches.create',
  listBatches: 'batches.list',
  getBatch: 'batches.get',
  listBatchRows: 'batches.rows',
  cancelBatch: 'batches.cancel',
  downloadBatch: 'batches.download',
  mergeBatch: 'batches.merged',
};

t.test('every operation of the document has a client method', async (t) => {
  const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
  const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
  t.same([...ids].sort(), Object.keys(METHODS).sort(), 'the table names every operation, and only those');
  const client = new Scriptorium({
    apiKey: 'hw_test_unit',
    baseUrl: 'http://127.0.0.1:1',
  }) as unknown as Record<string, Record<string, unknown>>;
  for (const [id, path] of Object.entries(METHODS)) {
    const [group, method] = path.split('.') as [string, string];
    t.type(client[group]?.[method], 'function', `${id}: client.${path}`);
  }
});
