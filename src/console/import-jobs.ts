// Imports started from the console, run in this process on its write runner while the operator watches: each job's
// phase and records as the import tells them (import-phases.ts), then the same all-or-nothing report the command line
// prints. A job remembers who started it: on SQLite the import holds the store's one connection until it commits, so
// its page and status are answered from memory to that session alone, without a query.
import { open, rm } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Store } from '../db/store.js';
import { ImportError, type ImportProblem } from '../import/problems.js';
import { importStream, type ImportSummary } from '../import/import.service.js';
import type { ImportPhase } from '../import/import-phases.js';
import type { Clock } from '../lib/clock.js';
import { newUuid } from '../lib/ids.js';
import { importSlackExport } from '../slack/export-import.service.js';
import { SlackExportError } from '../slack/export-zip.js';
import type { SignedIn } from '../operators/operators.service.js';
import type { WriteRunner } from '../writes/write-runner.js';

export type JobState = 'running' | 'completed' | 'refused' | 'failed';

export interface ImportJob {
  id: string;
  /** The operator and session that started it: the only one its page and status answer. */
  owner: SignedIn;
  communityId: string;
  kind: 'ndjson' | 'slack';
  fileName: string;
  startedAt: number;
  phase: ImportPhase | 'starting';
  records: number;
  state: JobState;
  summary: ImportSummary | null;
  /** What refused the file, line by line (line 0: the file as a whole). */
  problems: ImportProblem[];
  truncated: boolean;
  finishedAt: number | null;
}

/** Jobs are kept this long after they end, for the page that watches them; the run's record stays in the store. */
const KEPT_MS = 3_600_000;
const MAX_KEPT = 200;

/** A ZIP starts with a local file header (`PK\x03\x04`) or, empty, with the end of its directory (`PK\x05\x06`). */
async function isZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    return head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5);
  } finally {
    await handle.close();
  }
}

export function createImportJobs(store: Store, writes: WriteRunner, clock: Clock) {
  const jobs = new Map<string, ImportJob>();

  function forget(now: number): void {
    for (const [id, job] of jobs)
      if ((job.finishedAt !== null && now - job.finishedAt > KEPT_MS) || jobs.size > MAX_KEPT) jobs.delete(id);
  }

  async function run(job: ImportJob, path: string, origin: string): Promise<void> {
    const onProgress = (phase: ImportPhase, records: number) => {
      job.phase = phase;
      job.records = records;
    };
    try {
      if (job.kind === 'slack') {
        const result = await importSlackExport(store, job.communityId, path, { writes, clock, onProgress });
        job.summary = result.imported;
      } else {
        job.summary = await importStream(store, job.communityId, createReadStream(path), {
          writes,
          clock,
          onProgress,
          origin,
        });
      }
      job.records = job.summary.records;
      job.state = 'completed';
    } catch (error) {
      if (error instanceof ImportError) {
        job.state = 'refused';
        job.problems = error.problems;
        job.truncated = error.truncated;
      } else if (error instanceof SlackExportError) {
        job.state = 'refused';
        job.problems = [{ line: 0, reason: error.message }];
      } else {
        job.state = 'failed';
        job.problems = [
          { line: 0, reason: 'The import failed inside Hearth; nothing was imported. The server log has the cause.' },
        ];
        throw error;
      }
    } finally {
      job.finishedAt = clock();
      await rm(dirname(path), { recursive: true, force: true });
    }
  }

  return {
    /**
     * Starts importing the uploaded file at `path` (its folder is removed when the import ends): a Slack export when it
     * is a ZIP, NDJSON otherwise. `onFailure` hears an error that was not the file's fault.
     */
    async start(
      owner: SignedIn,
      communityId: string,
      path: string,
      fileName: string,
      origin: string,
      onFailure: (error: unknown) => void,
    ): Promise<ImportJob> {
      forget(clock());
      const job: ImportJob = {
        id: newUuid(),
        owner,
        communityId,
        kind: (await isZip(path)) ? 'slack' : 'ndjson',
        fileName,
        startedAt: clock(),
        phase: 'starting',
        records: 0,
        state: 'running',
        summary: null,
        problems: [],
        truncated: false,
        finishedAt: null,
      };
      jobs.set(job.id, job);
      run(job, path, origin).catch(onFailure);
      return job;
    },

    /** A job of the community (by slug) started with this session (its SHA-256), while it is kept. */
    owned(slug: string, id: string, sessionHash: string | null): ImportJob | undefined {
      const job = jobs.get(id);
      if (!job || sessionHash === null || job.owner.sessionHash !== sessionHash) return undefined;
      return job.owner.communities.some((c) => c.slug === slug && c.id === job.communityId) ? job : undefined;
    },
  };
}
export type ImportJobs = ReturnType<typeof createImportJobs>;
