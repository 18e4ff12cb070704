// `hearth pull`: copies feeds, calendar events and posts (with the profiles and tags they embed) from another
// server of this API, page by page through its list endpoints, into a community here. Pages are kept on disk as
// they arrive (pull-state.ts), so a failed run resumes where it stopped; the store is written once, when every
// page is in, in one import transaction: all or nothing per run.
import { createReadStream } from 'node:fs';
import type { Store } from '../db/store.js';
import type { Clock } from '../lib/clock.js';
import { ImportError } from '../import/problems.js';
import { importStream, type ImportSummary } from '../import/import.service.js';
import { discard, freshState, loadState, savePage, type PullFiles, type PullState } from './pull-state.js';
import { PullError, type Remote } from './remote-api.js';

export interface PullOptions {
  store: Store;
  remote: Remote;
  files: PullFiles;
  community: { id: string; slug: string };
  perPage: number;
  /** Discard an unfinished pull instead of resuming it. */
  restart: boolean;
  progress: (line: string) => void;
  /** Dates what the pulled records leave undated; the wall clock by default. */
  clock?: Clock;
}

export interface PullResult {
  fetched: Record<string, number>;
  imported: ImportSummary;
  resumed: boolean;
}

interface Stream {
  kind: 'feed' | 'calendar_event' | 'post';
  label: string;
  path: string;
}

/** What is read, in order; the feeds' posts become known once the feeds are read. */
function streamsOf(state: PullState): Stream[] {
  return [
    { kind: 'feed', label: 'feeds', path: '/feeds?' },
    ...['published', 'draft', 'needs_approval'].map(
      (status): Stream => ({
        kind: 'calendar_event',
        label: `calendar events (${status})`,
        path: `/calendar_events?status=${status}&`,
      }),
    ),
    // Oldest first: posts added during the pull land on later pages rather than shifting the earlier ones.
    ...state.feeds.map(
      (feed): Stream => ({
        kind: 'post',
        label: `posts of feed '${feed.label}'`,
        path: `/feeds/${feed.id}/posts?sort=oldest&`,
      }),
    ),
  ];
}

interface RemotePage {
  records: Record<string, unknown>[];
  has_next: boolean;
  total_pages: number;
}

function pageOf(body: unknown, where: string): RemotePage {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  const page = typeof data === 'object' && data !== null ? (data as Partial<RemotePage>) : {};
  const records = page.records;
  if (
    !Array.isArray(records) ||
    typeof page.has_next !== 'boolean' ||
    !records.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))
  ) {
    throw new PullError(`${where} did not answer a page of records.`);
  }
  return { records, has_next: page.has_next, total_pages: typeof page.total_pages === 'number' ? page.total_pages : 0 };
}

/** The source's own description of the token, when it has `/api_key/me` (older servers do not). */
async function describeSource(remote: Remote, progress: (line: string) => void): Promise<void> {
  try {
    const body = (await remote.get('/api_key/me')) as {
      data?: { field_names?: string; community?: { slug?: string; name?: string } };
    };
    const community = body.data?.community;
    const mode = body.data?.field_names ?? 'spec';
    progress(
      `Source ${remote.root}: community '${community?.slug ?? '?'}' (${community?.name ?? '?'}), token in ${mode} field names.`,
    );
    if (mode !== 'hosted')
      progress("Events' reminders_config is shown to hosted-mode tokens only: pull through one to copy it.");
  } catch (error) {
    if (!(error instanceof PullError) || error.status !== 404) throw error;
    progress(`Source ${remote.root}: no /api_key/me; going on.`);
  }
}

async function fetchAll(options: PullOptions, state: PullState): Promise<void> {
  const { remote, files, perPage, progress } = options;
  for (let streams = streamsOf(state); state.stream < streams.length; streams = streamsOf(state)) {
    const stream = streams[state.stream];
    if (!stream) break;
    const path = `${stream.path}page=${state.page}&per_page=${perPage}`;
    const page = pageOf(await remote.get(path), `GET ${remote.root}${path}`);
    if (stream.kind === 'feed') {
      for (const record of page.records) {
        if (typeof record['id'] !== 'string')
          throw new PullError(`GET ${remote.root}${path} answered a feed without an id.`);
        state.feeds.push({
          id: record['id'],
          label: typeof record['label'] === 'string' ? record['label'] : record['id'],
        });
      }
    }
    state.fetched[stream.kind] = (state.fetched[stream.kind] ?? 0) + page.records.length;
    progress(
      `${stream.label}: page ${state.page + 1} of ${Math.max(page.total_pages, state.page + 1)}, ${page.records.length} records`,
    );
    // An empty page ends a stream even if it claims more: a misbehaving server cannot keep the pull going forever.
    if (page.has_next && page.records.length > 0) state.page++;
    else {
      state.stream++;
      state.page = 0;
    }
    savePage(
      files,
      state,
      page.records.map((record) => JSON.stringify({ kind: stream.kind, ...record })),
    );
  }
}

export async function pull(options: PullOptions): Promise<PullResult> {
  const { files, remote, community, progress } = options;
  if (options.restart) discard(files);
  let state = loadState(files);
  const resumed = state !== null;
  if (state && (state.from !== remote.root || state.community !== community.slug)) {
    throw new PullError(
      `${files.dir} holds an unfinished pull from ${state.from} into '${state.community}'; pass --restart to discard it.`,
    );
  }
  if (!state) {
    discard(files);
    state = freshState(remote.root, community.slug);
  } else {
    progress(
      `Resuming the pull kept in ${files.dir}: ${Object.values(state.fetched).reduce((a, b) => a + b, 0)} records fetched so far.`,
    );
  }
  await describeSource(remote, progress);
  await fetchAll(options, state);

  progress(
    `Importing ${Object.values(state.fetched).reduce((a, b) => a + b, 0)} records into '${community.slug}' in one transaction…`,
  );
  let imported: ImportSummary;
  try {
    imported = await importStream(options.store, community.id, createReadStream(files.spool), {
      clock: options.clock,
      source: 'pull',
      origin: remote.root,
    });
  } catch (error) {
    if (error instanceof ImportError) {
      throw new PullError(
        `Import failed, nothing was kept: ${error.message}. The records fetched stay in ${files.spool}; running the pull again only imports.`,
      );
    }
    throw error;
  }
  discard(files);
  return { fetched: state.fetched, imported, resumed };
}
