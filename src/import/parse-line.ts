// Turns NDJSON lines into validated, normalized rows of the plan, or an ImportError naming the line and the reason.
import { unstorableIn } from '../content/storable-text.js';
import { jsonParseProblem } from '../lib/json-parse-problem.js';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { Static, TSchema } from '@sinclair/typebox';
import { AliasError, toSpecNames } from './parse-hosted-aliases.js';
import { describeUnknown, unknownFields } from './parse-unknown-fields.js';
import { LineParser } from './parse-rows.js';
import { schemaProblems } from './parse-schema-messages.js';
import type { ImportPlan, Link } from './plan.js';
import { ImportError } from './problems.js';
import {
  BadgeRecord,
  CommentRecord,
  EventRecord,
  FeedRecord,
  GroupRecord,
  PostRecord,
  ProfileRecord,
  recordKinds,
  TagRecord,
  type RecordKind,
} from './records.js';

export interface ParseOptions {
  /** Unknown fields are dropped instead of refused; each is told to `onIgnored`. */
  ignoreUnknown?: boolean;
  onIgnored?: (line: number, field: string) => void;
}

// One compiled check per kind: each narrows a record to its kind's type (records.ts).
const checkers = {
  feed: TypeCompiler.Compile(FeedRecord),
  profile: TypeCompiler.Compile(ProfileRecord),
  tag: TypeCompiler.Compile(TagRecord),
  calendar_event: TypeCompiler.Compile(EventRecord),
  post: TypeCompiler.Compile(PostRecord),
  comment: TypeCompiler.Compile(CommentRecord),
  badge: TypeCompiler.Compile(BadgeRecord),
  group: TypeCompiler.Compile(GroupRecord),
} satisfies Record<RecordKind, TypeCheck<TSchema>>;

const kindNames: ReadonlySet<string> = new Set(recordKinds);
const isRecordKind = (kind: unknown): kind is RecordKind => typeof kind === 'string' && kindNames.has(kind);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The record as its kind's type, or every problem of the line: unknown fields, then schema breaches, then bad text. */
function validated<T extends TSchema>(
  check: TypeCheck<T>,
  kind: RecordKind,
  record: Record<string, unknown>,
  line: number,
  options: ParseOptions,
  badTextPossible: boolean,
): Static<T> {
  const problems: string[] = [];
  for (const field of unknownFields(kind, record)) {
    if (options.ignoreUnknown) options.onIgnored?.(line, field.path);
    else problems.push(describeUnknown(field));
  }
  if (!check.Check(record)) {
    problems.push(...schemaProblems(check.Errors(record)));
    throw new ImportError(line, `${kind}: ${problems.join('; ')}`);
  }
  const bad = problems.length === 0 && badTextPossible ? unstorableIn(record) : null;
  if (bad !== null) problems.push(`${bad.path || 'record'} ${bad.rule}`);
  if (problems.length > 0) throw new ImportError(line, `${kind}: ${problems.join('; ')}`);
  return record;
}

const tableOf: Partial<Record<RecordKind, Link['table']>> = {
  feed: 'feeds',
  profile: 'profiles',
  tag: 'tags',
  post: 'posts',
  comment: 'comments',
};

/** Remembers the id a refused line defined, so that links to it are not reported again as missing. */
function reject(plan: ImportPlan, kind: RecordKind, record: Record<string, unknown>): void {
  const table = tableOf[kind];
  const id = record['id'] ?? record['profile_id'];
  if (table && typeof id === 'string') plan.rejected.add(`${table}:${id}`);
}

/**
 * Adds one NDJSON line to the plan; blank lines are skipped. Later records with the same id win. A bad
 * line throws an ImportError naming every problem of that line: unknown fields, then schema breaches.
 */
export function parseLine(plan: ImportPlan, text: string, line: number, now: string, options: ParseOptions = {}): void {
  if (text.trim() === '') return;
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    // One line of text: where parsing stopped is a column of it, said the same way on every Node version.
    throw new ImportError(
      line,
      `not valid JSON (${jsonParseProblem(error, text).replace(/ at line 1, column /, ' at column ')})`,
    );
  }
  if (!isObject(record)) throw new ImportError(line, 'a record must be a JSON object');
  const recordKind = record['kind'];
  if (!isRecordKind(recordKind)) {
    throw new ImportError(
      line,
      `kind must be one of ${recordKinds.join(', ')} (got ${JSON.stringify(recordKind ?? null)})`,
    );
  }
  // JSON spells a NUL inside a string only as the escape \u0000 (a raw one is not valid JSON), and a lone surrogate
  // only as an escape \uD800 to \uDFFF (UTF-8 has no bytes for one): without either, no walk.
  // Most lines hold no escape of the kind at all: one scan says so.
  const badText = text.includes('\\u') && (text.includes('\\u0000') || /\\u[dD][89a-fA-F]/.test(text));
  let aliased: Record<string, unknown>;
  try {
    // Hosted names become spec names first; every later check sees the spec's.
    aliased = toSpecNames(recordKind, record);
  } catch (error) {
    if (error instanceof AliasError) throw new ImportError(line, `${recordKind}: ${error.message}`);
    throw error;
  }
  try {
    const parser = new LineParser(plan, line, now);
    switch (recordKind) {
      case 'feed':
        parser.feed(validated(checkers.feed, recordKind, aliased, line, options, badText));
        break;
      case 'profile':
        parser.profile(validated(checkers.profile, recordKind, aliased, line, options, badText));
        break;
      case 'tag':
        parser.tag(validated(checkers.tag, recordKind, aliased, line, options, badText));
        break;
      case 'calendar_event':
        parser.event(validated(checkers.calendar_event, recordKind, aliased, line, options, badText));
        break;
      case 'post':
        parser.post(validated(checkers.post, recordKind, aliased, line, options, badText));
        break;
      case 'comment':
        parser.comment(validated(checkers.comment, recordKind, aliased, line, options, badText));
        break;
      case 'badge':
        parser.badge(validated(checkers.badge, recordKind, aliased, line, options, badText));
        break;
      case 'group':
        parser.group(validated(checkers.group, recordKind, aliased, line, options, badText));
        break;
    }
  } catch (error) {
    reject(plan, recordKind, aliased);
    throw error;
  }
  plan.records++;
}
