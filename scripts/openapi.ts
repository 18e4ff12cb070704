// `npm run openapi`: captures the examples, then writes openapi.json, src/http/openapi-examples.ts and the client's generated sources.
import { writeFileSync } from 'node:fs';
import { clientSources, type DocumentShape } from '../packages/client/scripts/generate.js';
import { finishOpenApi, type DocumentShape as ServerDocument } from '../src/http/openapi-document.js';
import { captureExamples } from '../test/openapi/capture-examples.js';
import { createTestApp } from '../test/helpers/test-app.js';

const root = new URL('../', import.meta.url);

const t = await createTestApp();
const current = t.app.swagger();
await t.close();

const examples = await captureExamples(current as DocumentShape);
writeFileSync(
  new URL('src/http/openapi-examples.ts', root),
  [
    '// Real answers captured from the test fixtures by `npm run openapi` (scripts/openapi.ts); generated, do not edit.',
    '',
    '/** By operationId, then status, then example key: a summary and the body answered. */',
    'export type CapturedExamples = Record<string, Record<string, Record<string, { summary: string; value: unknown }>>>;',
    '',
    `export const responseExamples: CapturedExamples = ${JSON.stringify(examples, null, 2)};`,
    '',
  ].join('\n'),
);

// This process loaded the examples module before capturing new ones: apply the new ones to the document.
const document = structuredClone(current) as ServerDocument;
finishOpenApi(document, examples);
writeFileSync(new URL('openapi.json', root), `${JSON.stringify(document, null, 2)}\n`);

for (const [path, source] of Object.entries(await clientSources(document as DocumentShape))) {
  writeFileSync(new URL(`packages/client/${path}`, root), source);
}
console.log('Wrote openapi.json, src/http/openapi-examples.ts and packages/client/src/{schema.d.ts,operations.ts}.');
