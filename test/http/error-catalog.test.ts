// The error catalog: codes unique, each published in the OpenAPI document with its status and meaning, each answered by some code in src/.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../../src/errors.js';

const root = new URL('../../', import.meta.url);
const codes = Object.keys(errorCatalog) as (keyof typeof errorCatalog)[];
const catalogSource = readFileSync(new URL('src/errors.ts', root), 'utf8');
// The catalog literal itself: a code named only there is answered nowhere.
const catalogLiteral = catalogSource.slice(
  catalogSource.indexOf('export const errorCatalog'),
  catalogSource.indexOf('} as const'),
);

interface CodeSchema {
  enum?: string[];
  description?: string;
  'x-enumDescriptions'?: Record<string, string>;
}
const document = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8')) as {
  components: { schemas: { Error: { properties: { code: CodeSchema } } } };
};
const published = document.components.schemas.Error.properties.code;

/** Every TypeScript source of src/, the catalog literal left out of errors.ts. */
function sources(): string[] {
  return readdirSync(new URL('src/', root), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => {
      const text = readFileSync(new URL(`src/${path}`, root), 'utf8');
      return path === 'errors.ts' ? text.replace(catalogLiteral, '') : text;
    });
}

describe('error catalog', () => {
  it('names each code once, in snake case', () => {
    // An object literal keeps the last of two equal keys: count them in the source.
    const written = [...catalogLiteral.matchAll(/^ {2}([a-z_]+): \{/gm)].map((match) => match[1]);
    expect(written).toEqual(codes);
    expect(new Set(written).size).toBe(written.length);
    for (const code of codes) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('publishes every code as the enum of ErrorBody.code, each with its status and meaning', () => {
    expect(published.enum).toEqual(codes);
    for (const code of codes) {
      const { status, message } = errorCatalog[code];
      expect(published['x-enumDescriptions']?.[code]).toBe(`${status}: ${message}`);
      expect(published.description).toContain(`\`${code}\` (${status}): ${message}`);
    }
  });

  it('answers every code somewhere in src/', () => {
    const text = sources().join('\n');
    const unused = codes.filter((code) => !text.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });
});
