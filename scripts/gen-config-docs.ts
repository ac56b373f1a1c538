// Writes the table of configuration variables into README.md between its markers (npm run docs:config).
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigTable } from './config-table.ts';

const path = new URL('../README.md', import.meta.url);
writeFileSync(path, withConfigTable(readFileSync(path, 'utf8')));
console.log('README.md: configuration table written');
