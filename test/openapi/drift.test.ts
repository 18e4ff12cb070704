// The committed OpenAPI artefacts (openapi.json, its examples, the client's generated sources) are what the code generates today.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSources, type DocumentShape } from '../../packages/client/scripts/generate.js';
import { responseExamples } from '../../src/openapi/examples.js';
import { captureExamples } from '../../scripts/openapi/capture-examples.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const stale = (what: string) =>
  `${what} differs from what the code generates: run \`npm run openapi\` and commit the result`;

let t: TestApp;
let committed: string;

beforeAll(async () => {
  t = await createTestApp();
  committed = read('openapi.json');
});
afterAll(() => t.close());

describe('openapi.json', () => {
  it('is the document the routes generate, byte for byte', () => {
    const generated = t.app.swagger();
    expect(JSON.parse(committed), stale('openapi.json')).toEqual(generated);
    expect(committed, stale('openapi.json (formatting)')).toBe(`${JSON.stringify(generated, null, 2)}\n`);
  });

  it('is served at /admin/v0/openapi.json without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/v0/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual(JSON.parse(committed));
  });

  it('shows as examples the answers the server gives today', async () => {
    // Equal as values, not as text: PostgreSQL's jsonb keeps the keys of stored blocks in its own order.
    const captured = await captureExamples(JSON.parse(committed) as DocumentShape, createTestApp);
    expect(captured, stale('src/openapi/examples.json')).toEqual(responseExamples);
  });
});

describe('packages/client', () => {
  it('has the sources openapi-typescript and the generator make from the committed openapi.json', async () => {
    for (const [path, source] of Object.entries(await clientSources(JSON.parse(committed) as DocumentShape))) {
      expect(read(`packages/client/${path}`), stale(`packages/client/${path}`)).toBe(source);
    }
  });
});
