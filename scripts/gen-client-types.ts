// Writes src/client/schema.ts, the client's types, from the service's OpenAPI document
// (openapi-typescript). A unit test regenerates it and fails when the two differ.
import { writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { openApiDocument } from '../src/api/openapi/document.ts';

const HEADER = `// Generated from the OpenAPI document by scripts/gen-client-types.ts (npm run client:types).
// Do not edit: change src/api/openapi/document.ts and run it again.
`;

export async function clientTypes(): Promise<string> {
  const ast = await openapiTS(openApiDocument() as unknown as Parameters<typeof openapiTS>[0], {
    alphabetize: true,
    exportType: false,
  });
  return `${HEADER}${astToString(ast)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../src/client/schema.ts', import.meta.url), await clientTypes());
  console.log('src/client/schema.ts written');
}
