// `npm run docs:config`: rewrites the configuration table of README.md from the config schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { readmeUrl, readmeWithTable } from './config-table.js';

writeFileSync(readmeUrl, readmeWithTable(readFileSync(readmeUrl, 'utf8')));
console.log('Wrote the configuration table of README.md.');
