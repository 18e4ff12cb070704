// `npm run docs:config`: rewrites the configuration table of docs/configuration.md from the config schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { configDocUrl, withConfigTable } from './config-table.js';

writeFileSync(configDocUrl, withConfigTable(readFileSync(configDocUrl, 'utf8')));
console.log('Wrote the configuration table of docs/configuration.md.');
