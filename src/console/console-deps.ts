// What the console is built from: the same services `buildApp` hands the admin API, never copies of their rules.
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { EventWritesService } from '../events/event-writes.service.js';
import type { EventsService } from '../events/events.service.js';
import type { FeedsService } from '../feeds/feeds.service.js';
import type { AnswerCacheCounts, Metrics } from '../metrics/metrics.js';
import type { MembersService } from '../members/members.service.js';
import type { OperatorsService } from '../operators/operators.service.js';
import type { PostsService } from '../posts/posts.service.js';
import type { SearchService } from '../search/search.service.js';
import type { TokensService } from '../tokens/tokens.service.js';
import type { WebhooksService } from '../webhooks/webhooks.service.js';
import type { WriteRunner } from '../writes/write-runner.js';
import type { Clock } from '../lib/clock.js';
import type { RequestCounter } from '../http/shared-counter.js';

export interface ConsoleDeps {
  config: Config;
  store: Store;
  clock: Clock;
  writes: WriteRunner;
  operators: OperatorsService;
  events: EventsService;
  eventWrites: EventWritesService;
  posts: PostsService;
  feeds: FeedsService;
  search: SearchService;
  members: MembersService;
  tokens: TokensService;
  webhooks: WebhooksService;
  metrics: Metrics;
  answerCache: AnswerCacheCounts;
  /** Redis's state for the rate limits: `null` without REDIS_URL. */
  redis: () => 'ok' | 'degraded' | null;
  /** Counts sign-in attempts per address (a window of a minute; shared through Redis when set). */
  signInCounter: RequestCounter;
}
