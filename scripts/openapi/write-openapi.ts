// `npm run openapi`: captures the examples, then writes openapi.json, src/openapi/examples.json and the client's generated sources.
import { writeFileSync } from 'node:fs';
import { clientSources, type DocumentShape } from '../../packages/client/scripts/generate.js';
import { examplesFile } from '../../src/openapi/examples.js';
import { finishOpenApi, type DocumentShape as ServerDocument } from '../../src/openapi/openapi-document.js';
import { captureExamples } from './capture-examples.js';
import { createExampleApp } from './example-app.js';

const root = new URL('../../', import.meta.url);

const t = await createExampleApp();
const current = t.app.swagger();
await t.close();

const examples = await captureExamples(current as DocumentShape, createExampleApp);
writeFileSync(examplesFile, `${JSON.stringify(examples, null, 2)}\n`);

// This process loaded the examples before capturing new ones: apply the new ones to the document.
const document = structuredClone(current) as ServerDocument;
finishOpenApi(document, examples);
writeFileSync(new URL('openapi.json', root), `${JSON.stringify(document, null, 2)}\n`);

for (const [path, source] of Object.entries(await clientSources(document as DocumentShape))) {
  writeFileSync(new URL(`packages/client/${path}`, root), source);
}
console.log('Wrote openapi.json, src/openapi/examples.json and packages/client/src/{schema.d.ts,operations.ts}.');
