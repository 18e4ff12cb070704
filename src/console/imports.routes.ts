// Import pages: upload an NDJSON file or a Slack export ZIP, watch its phases live (a page that refreshes itself,
// or console.js reading the job's status), the all-or-nothing report, and the community's import history.
import { mkdtemp } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors.js';
import { importPhases } from '../import/import-phases.js';
import { listImportRuns } from '../import-runs/import-runs.repository.js';
import type { ConsoleDeps } from './console-deps.js';
import { PageParams, SlugParams } from './forms.js';
import { createImportJobs, type ImportJob } from './import-jobs.js';
import { page } from './render.js';
import { CONSOLE_PATH, communityOf, operatorOf } from './session.js';

const JobParams = Type.Object({ slug: SlugParams.properties.slug, job: Type.String({ maxLength: 64 }) });
const UploadQuery = Type.Object({ _csrf: Type.Optional(Type.String({ maxLength: 200 })) });

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
      const job = await jobs.start(
        community.id,
        path,
        name,
        `console: ${name} (${operatorOf(request).email})`,
        (error) => request.log.error({ err: error }, 'console import failed'),
      );
      return reply.redirect(`${base(community.slug)}/jobs/${job.id}`, 303);
    },
  );

  app.get('/c/:slug/imports/jobs/:job', { schema: { hide: true, params: JobParams } }, async (request, reply) => {
    const community = communityOf(request, request.params.slug);
    const job = jobs.get(community.id, request.params.job);
    if (!job)
      throw new AppError(
        'not_found',
        'No such import in this console (finished imports are kept an hour; see the history).',
      );
    return page(request, reply, 'import-job', {
      title: `Import of ${job.fileName}`,
      community,
      section: 'imports',
      job,
      status: statusOf(job),
      phases: importPhases,
    });
  });

  app.get(
    '/c/:slug/imports/jobs/:job/status',
    { schema: { hide: true, params: JobParams } },
    async (request, reply) => {
      const community = communityOf(request, request.params.slug);
      const job = jobs.get(community.id, request.params.job);
      if (!job) throw new AppError('not_found', 'No such import.');
      return reply.header('cache-control', 'no-store').send(statusOf(job));
    },
  );
};
