// Loaded with `node --import`: appends the URL of every module the process loads to the file in HEARTH_IMPORTS_FILE.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, resolved.url + '\\n');
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { file: process.env.HEARTH_IMPORTS_FILE } });
