// `hearth export`: one community as NDJSON, to a file only its owner may read or to stdout.
import { createWriteStream, fchmodSync, openSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { isBrokenPipe } from './output.js';

/** An export holds members' e-mail addresses: only its owner may read it (0600), also when it replaces a file. */
function privateOutput(path: string): WriteStream {
  const fd = openSync(path, 'w', 0o600);
  fchmodSync(fd, 0o600);
  return createWriteStream('', { fd });
}

export function exportCommand(program: Command, ctx: CliContext, stdout: Writable): void {
  program
    .command('export [file]')
    .description('export a community as NDJSON (stdout when no file)')
    .requiredOption('--community <slug>', 'community to export')
    .action((file: string | undefined, options: { community: string }) =>
      ctx.withStore(async (store) => {
        const [{ createCommunitiesService }, { exportRecords }] = await Promise.all([
          import('../communities/communities.service.js'),
          import('../export/export.service.js'),
        ]);
        const community = await createCommunitiesService(store.db, store.dialect).get(options.community);
        const output = file && file !== '-' ? privateOutput(file) : stdout;
        try {
          for await (const record of exportRecords(store.db, community.id)) {
            if (!output.write(`${JSON.stringify(record)}\n`)) await once(output, 'drain');
          }
          if (output !== stdout) {
            output.end();
            await once(output, 'finish');
          }
        } catch (error) {
          // `hearth export | head`: the reader has what it wanted; stop quietly, as `cat` does.
          if (output === stdout && isBrokenPipe(error)) return;
          throw error;
        }
      }),
    );
}
