// `hearth import` and `hearth export`: NDJSON in and out of one community.
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { createCommunitiesService } from '../communities/communities.service.js';
import { exportRecords } from '../transfer/export.service.js';
import { ImportError } from '../transfer/import-parse.js';
import { importStream } from '../transfer/import.service.js';
import { CliError, type CliContext } from './context.js';

export interface TransferStreams {
  stdin: Readable;
  stdout: Writable;
}

export function transferCommands(program: Command, ctx: CliContext, streams: TransferStreams): void {
  program
    .command('import <file>')
    .description("import an NDJSON file ('-' for stdin); all or nothing")
    .requiredOption('--community <slug>', 'community to import into')
    .action((file: string, options: { community: string }) =>
      ctx.withStore(async (store) => {
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const input = file === '-' ? streams.stdin : createReadStream(file, 'utf8');
        try {
          const summary = await importStream(store, community.id, input);
          const parts = Object.entries(summary).filter(([k, v]) => k !== 'records' && v > 0).map(([k, v]) => `${v} ${k}`);
          ctx.io.out(`Imported ${summary.records} records into '${community.slug}'${parts.length ? `: ${parts.join(', ')}` : ''}.`);
        } catch (error) {
          if (error instanceof ImportError) throw new CliError(`Import failed, nothing was kept: ${error.message}`);
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`No such file: ${file}`);
          throw error;
        }
      }),
    );

  program
    .command('export [file]')
    .description('export a community as NDJSON (stdout when no file)')
    .requiredOption('--community <slug>', 'community to export')
    .action((file: string | undefined, options: { community: string }) =>
      ctx.withStore(async (store) => {
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const output = file && file !== '-' ? createWriteStream(file) : streams.stdout;
        for await (const record of exportRecords(store.db, community.id)) {
          if (!output.write(`${JSON.stringify(record)}\n`)) await once(output, 'drain');
        }
        if (output !== streams.stdout) {
          output.end();
          await once(output, 'finish');
        }
      }),
    );
}
