// `hearth demo`: fills a community with realistic sample data through the real import path, then
// prints a token and a curl line to try it.
import type { Command } from 'commander';
import { createCommunitiesService } from '../communities/communities.service.js';
import { demoRecords } from '../demo/demo-records.js';
import { importLines } from '../transfer/import.service.js';
import { createTokensService } from '../tokens/tokens.service.js';
import { CliError, type CliContext } from './context.js';

/** Records per import transaction; each chunk is all-or-nothing like a file. */
const CHUNK = 20_000;

export function demoCommand(program: Command, ctx: CliContext): void {
  program
    .command('demo')
    .description('fill a community (default: demo) with sample data and print a token for it')
    .option('--community <slug>', 'community to fill', 'demo')
    .option('--scale <posts>', 'generate a corpus of this many posts (with events, comments and members in proportion)')
    .option('--seed <n>', 'random seed', '1')
    .action((options: { community: string; scale?: string; seed: string }) =>
      ctx.withStore(async (store) => {
        const scale = options.scale === undefined ? undefined : Number(options.scale);
        if (scale !== undefined && (!Number.isInteger(scale) || scale < 1)) throw new CliError(`Invalid --scale '${options.scale}': a positive integer.`);
        const community = await createCommunitiesService(store.db, store.dialect).ensure(options.community, 'Demo community');
        const started = performance.now();
        const totals: Record<string, number> = {};
        let batch: string[] = [];
        const flush = async () => {
          const summary = await importLines(store, community.id, batch);
          for (const [k, v] of Object.entries(summary)) totals[k] = (totals[k] ?? 0) + v;
          batch = [];
        };
        for (const record of demoRecords({ now: Date.now(), scale, seed: Number(options.seed) })) {
          batch.push(JSON.stringify(record));
          if (batch.length >= CHUNK) await flush();
        }
        if (batch.length > 0) await flush();
        const seconds = (performance.now() - started) / 1000;
        const { records = 0, ...kinds } = totals;
        const token = await createTokensService(store.db).create(community.id, { name: 'demo', scopes: ['read', 'members:write'] });
        const base = `http://${ctx.config.host}:${ctx.config.port}/admin/v0`;
        ctx.io.out(`Demo community '${community.slug}' ready: ${Object.entries(kinds).map(([k, v]) => `${v} ${k}`).join(', ')}.`);
        ctx.io.out(`Imported ${records} records in ${seconds.toFixed(1)} s (${Math.round(records / seconds)} records/s).`);
        ctx.io.out('');
        ctx.io.out(`Token (scopes read, members:write): ${token.secret}`);
        ctx.io.out('Try:');
        ctx.io.out(`  curl -H "Authorization: Bearer ${token.secret}" "${base}/calendar_events?time_filter=upcoming&per_page=2"`);
      }),
    );
}
