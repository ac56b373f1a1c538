// The client's types (src/client/schema.ts) from the service's OpenAPI document (openapi-typescript);
// scripts/gen-client-types.ts writes them. A unit test makes them again and fails when the two differ.
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
