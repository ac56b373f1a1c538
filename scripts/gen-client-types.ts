// Writes src/client/schema.ts, the client's types, from the service's OpenAPI document (npm run client:types).
import { writeFileSync } from 'node:fs';
import { clientTypes } from './client-types.ts';

writeFileSync(new URL('../src/client/schema.ts', import.meta.url), await clientTypes());
console.log('src/client/schema.ts written');
