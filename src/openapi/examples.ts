// The captured response examples of the OpenAPI document: examples.json beside this file, written by `npm run openapi`.
import { readFileSync } from 'node:fs';

/** By operationId, then status, then example key: a summary and the body answered. */
export type CapturedExamples = Record<string, Record<string, Record<string, { summary: string; value: unknown }>>>;

/** Where the examples are kept: next to this module, in src/ when run from source and in dist/ when built. */
export const examplesFile = new URL('./examples.json', import.meta.url);

// Read with fs rather than imported as a JSON module: the same on every Node 20 and 22, with no import attributes.
export const responseExamples = JSON.parse(readFileSync(examplesFile, 'utf8')) as CapturedExamples;
