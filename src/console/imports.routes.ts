// Import pages: upload an NDJSON file or a Slack export ZIP, watch its phases live (a page that refreshes itself,
// or console.js reading the job's status), the all-or-nothing report, and the community's import history.
import { mkdtemp } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { importPhases } from '../import/import-phases.js';
import { listImportRuns } from '../import-runs/import-runs.repository.js';
import { hashSecret } from '../lib/secret-hash.js';
import type { ConsoleDeps } from './console-deps.js';
import { PageParams, SlugParams } from './forms.js';
import { createImportJobs, type ImportJob } from './import-jobs.js';
import { page } from './render.js';
import { CONSOLE_PATH, communityOf, operatorOf, SESSION_COOKIE } from './session.js';

const JobParams = Type.Object({ slug: SlugParams.properties.slug, job: Type.String({ maxLength: 64 }) });
const UploadQuery = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });
/** A job's pages skip the session hook's query (it would wait behind the import on SQLite): see `ownJob`. */
const fromMemory = { signedOut: true } as const;

/** What a watching page needs of a job (console.js reads it as JSON). */
const statusOf = (job: ImportJob) => ({
  state: job.state,
  phase: job.phase,
  phase_number: job.phase === 'starting' ? 0 : importPhases.indexOf(job.phase) + 1,
  phases: importPhases.length,
  records: job.records,
  summary: job.summary,
  problems: job.problems,
});

export const importsRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { store, writes, clock }) => {
  const jobs = createImportJobs(store, writes, clock);
  const base = (slug: string) => `${CONSOLE_PATH}/c/${slug}/imports`;

  /** The job, for the session that started it only (compared in memory); its operator becomes the request's. */
  function ownJob(request: FastifyRequest, slug: string, id: string): ImportJob {
    const cookie = request.cookies[SESSION_COOKIE];
    const job = jobs.owned(slug, id, cookie ? hashSecret(cookie) : null);
    if (!job)
      throw new AppError(
        'not_found',
        'No such import in this console (finished imports are kept an hour; see the history).',
      );
    request.operator = job.owner;
    return job;
  }

  app.get(
    '/c/:slug/imports',
    { schema: { hide: true, params: SlugParams, querystring: Type.Object(PageParams) } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const { page: pageNumber, per_page } = request.query;
      const rows = await listImportRuns(store.db, {
        communityId: community.id,
        limit: (pageNumber + 1) * per_page + 1,
      });
      const runs = rows.slice(pageNumber * per_page, (pageNumber + 1) * per_page);
      return page(request, reply, 'imports', {
        title: 'Imports',
        community,
        section: 'imports',
        list: { page: pageNumber, records: runs, has_next: rows.length > (pageNumber + 1) * per_page },
      });
    },
  );

  app.post(
    '/c/:slug/imports',
    { schema: { hide: true, params: SlugParams, querystring: UploadQuery } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const file = await request.file();
      if (!file) throw new AppError('invalid_body', 'Choose a file to import (NDJSON, or a Slack export ZIP).');
      const dir = await mkdtemp(join(tmpdir(), 'hearth-upload-'));
      const path = join(dir, 'upload');
      await pipeline(file.file, createWriteStream(path, { mode: 0o600 }));
      if (file.file.truncated)
        throw new AppError(
          'payload_too_large',
          'The file is larger than the console takes (512 MB); import it with hearth import.',
        );
      const name = file.filename.slice(0, 200) || 'upload';
      const operator = operatorOf(request);
      const job = await jobs.start(
        operator,
        community.id,
        path,
        name,
        `console: ${name} (${operator.email})`,
        (error) => request.log.error({ err: error }, 'console import failed'),
      );
      return reply.redirect(`${base(community.slug)}/jobs/${job.id}`, 303);
    },
  );

  app.get(
    '/c/:slug/imports/jobs/:job',
    { config: fromMemory, schema: { hide: true, params: JobParams } },
    async (request, reply) => {
      const job = ownJob(request, request.params.slug, request.params.job);
      const community = communityOf(request, request.params.slug);
      return page(request, reply, 'import-job', {
        title: `Import of ${job.fileName}`,
        community,
        section: 'imports',
        job,
        status: statusOf(job),
        phases: importPhases,
      });
    },
  );

  app.get(
    '/c/:slug/imports/jobs/:job/status',
    { config: fromMemory, schema: { hide: true, params: JobParams } },
    async (request, reply) => {
      const job = ownJob(request, request.params.slug, request.params.job);
      return reply.header('cache-control', 'no-store').send(statusOf(job));
    },
  );
};
