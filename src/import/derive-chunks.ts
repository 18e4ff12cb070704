// The import's thread-side half: NDJSON lines in, rows ready to write out, chunk by chunk. It parses, validates
// and derives (plain text, read time, references) and keeps what only the whole file can tell: links, e-mails,
// ids, comment counts and latest activity (exact for posts new to the store) and, into an empty community, feed
// counts, computed in memory.
import { writeJson } from '../db/json.js';
import { postAsJsonb } from '../db/jsonb-order.js';
import { ShortIdSet } from '../lib/short-id-set.js';
import type { PostRow } from '../posts/posts.repository.js';
import { FragmentEncoder, type EncodedFragments } from '../rendering/fragment-bodies.js';
import { renderPost } from '../rendering/post-fragment.js';
import { type ResolverTables, deriverOf } from '../references/derive.js';
import { parseLine, type ParseOptions } from './parse-line.js';
import { emptyPlan, noNamedIds, type ImportPlan, type Link, type LinkGroup, type NamedIds } from './plan.js';
import { ImportError, type ImportProblem, maxProblems } from './problems.js';
import { LineSplitter } from './read-lines.js';
import { LinkLines } from './check-link-lines.js';

type Row = Record<string, unknown>;
type Table = Link['table'];

/** What the store must be told about the e-mails of one chunk's profiles before it writes them. */
export interface EmailClaim {
  line: number;
  id: string;
  email: string | null;
  email_key: string;
}

export interface ChunkRows {
  feeds: Row[];
  profiles: Row[];
  tags: Row[];
  events: Row[];
  eventProfiles: Row[];
  eventTags: Row[];
  eventPublications: Row[];
  posts: Row[];
  comments: Row[];
  badges: Row[];
  badgeMembers: Row[];
  groups: Row[];
  groupMembers: Row[];
  emails: EmailClaim[];
  /** Posts whose comments_count and latest_activity_at were counted from the file (exact for a post new to the store). */
  countedPosts: string[];
  /** The fragments of `posts`, in their order, rendered from the rows as the store will give them back. */
  postFragments: EncodedFragments;
  /**
   * Every record of the chunk is new to the store: the community was empty and no earlier chunk gave any of
   * them. Its rows may be inserted, where other chunks' rows are upserted.
   */
  fresh: boolean;
}

export interface ChunkResult {
  /** Null once any line of the file was refused: nothing more is written, only problems are gathered. */
  rows: ChunkRows | null;
  problems: ImportProblem[];
  ignored: [number, string][];
  records: number;
}

/** Bits of a record's fields that were derived (and so depend on the file's profiles and feeds). */
export const DERIVED = { plaintext: 1, readTime: 2, references: 4, description: 8, recap: 16 } as const;

export interface FinishResult {
  records: number;
  counts: Record<Table | 'calendar_events' | 'badges' | 'groups', number>;
  /** Records named by the file, neither in it nor refused in it: the store must hold them (their lines: linesOf). */
  unresolved: NamedIds;
  /** The file's profiles with an e-mail, each at the line of its last record. */
  emails: EmailClaim[];
  /** Touched records, for fragments and counters. */
  ids: {
    feeds: string[];
    profiles: string[];
    tags: string[];
    events: string[];
  };
  /** Feed references derived once every feed and profile is known. */
  feedReferences: { id: string; purpose: string | null; topic: string | null }[];
  /** Posts whose comments_count and latest_activity_at the store must count (besides those it held among `countedPosts`). */
  recountPosts: string[];
  /** Into an empty community: posts_count per feed from memory; null when the store must count (a post given twice). */
  feedCounts: [string, number][] | null;
  /**
   * Set when a profile or feed that mentions resolve against came after records derived without it: the
   * derived fields of these records are derived again from the store at the end.
   */
  late: { posts: [string, number][]; comments: [string, number][]; events: [string, number][] } | null;
}

/** How the store gives a post's JSON columns back (write-store.ts): as written, or with keys in jsonb's order. */
export type PostsReadBack = 'as-written' | 'jsonb-order';

export interface ChunkOptions extends ParseOptions {
  now: string;
  readsBack: PostsReadBack;
  communityId: string;
  /** The community held nothing: counters are kept in memory instead of counted by the store. */
  empty: boolean;
  resolver: ResolverTables;
}

/** Which derived fields each record of a kind had, kept as one usual mask and the records whose mask differs. */
class DerivedMasks {
  private usual: number | null = null;
  private readonly other = new Map<string, number>();

  /** The mask of the record's last line. */
  set(id: string, mask: number): void {
    this.usual ??= mask;
    if (mask === this.usual) this.other.delete(id);
    else this.other.set(id, mask);
  }

  /** The records among `ids` with a derived field, each with its mask. */
  list(ids: Iterable<string>): [string, number][] {
    const listed: [string, number][] = [];
    for (const id of ids) {
      const mask = this.other.get(id) ?? this.usual ?? 0;
      if (mask) listed.push([id, mask]);
    }
    return listed;
  }
}

export class ChunkBuilder {
  /** Every id of the file, by kind: events, posts and comments (most of a large file) kept compact. */
  private readonly ids: Record<Table | 'events' | 'badges' | 'groups', Set<string> | ShortIdSet> = {
    feeds: new Set(),
    profiles: new Set(),
    tags: new Set(),
    badges: new Set(),
    groups: new Set(),
    events: new ShortIdSet(),
    posts: new ShortIdSet(),
    comments: new ShortIdSet(),
  };
  /**
   * Records the file had not defined when links named them, by `table:id`, each with the first lines naming it
   * (line numbers and roles), as many as a report can show: its first lines are among them, its "more" stays true.
   */
  private readonly unresolvedCandidates = new LinkLines(maxProblems + 1);
  private readonly rejected = new Set<string>();
  private readonly emails = new Map<string, EmailClaim>();
  private readonly recount = new ShortIdSet();
  /** Comments counted for posts whose row is not written yet (a row written takes its post's entry). */
  private readonly activity = new Map<string, { n: number; max: string }>();
  private readonly feedCounts = new Map<string, number>();
  private feedCountsValid = true;
  /** Set once a comment was given twice: the store counts every post. */
  private recountAll = false;
  private readonly pendingFeeds = new Map<string, { purpose: unknown[] | null; topic: unknown[] | null }>();
  private readonly derivedMasks = {
    posts: new DerivedMasks(),
    comments: new DerivedMasks(),
    events: new DerivedMasks(),
  };
  private readonly profileKeys = new Map<string, string>();
  private derivedAny = false;
  private late = false;
  private failed = false;
  private records = 0;
  private readonly derive;

  constructor(private readonly options: ChunkOptions) {
    this.derive = deriverOf(options.resolver);
    for (const [key, user] of options.resolver.users) this.profileKeys.set(user.profile_id, key);
  }

  /** Splits blocks of the file's bytes into lines (the line numbers counted here). */
  private readonly splitter = new LineSplitter();
  private nextLine = 1;

  /** Parses the lines that end in a block of the file's bytes (see add). */
  addBlock(block: Uint8Array): ChunkResult {
    return this.addSplit(this.splitter.push(block));
  }

  /** Parses the last lines of the file, once all its blocks were added. */
  endBlocks(): ChunkResult {
    return this.addSplit(this.splitter.end());
  }

  private addSplit(lines: string[]): ChunkResult {
    const first = this.nextLine;
    this.nextLine += lines.length;
    return this.add(lines, first);
  }

  /** Parses a run of lines (numbered from `first`) and, while the file is good, turns them into rows. */
  add(lines: readonly string[], first: number): ChunkResult {
    const plan = emptyPlan();
    const problems: ImportProblem[] = [];
    const ignored: [number, string][] = [];
    const options: ParseOptions = {
      ignoreUnknown: this.options.ignoreUnknown,
      onIgnored: (line, field) => ignored.push([line, field]),
    };
    for (let i = 0; i < lines.length; i++) {
      try {
        parseLine(plan, lines[i] ?? '', first + i, this.options.now, options);
      } catch (error) {
        if (!(error instanceof ImportError)) throw error;
        problems.push(...error.problems);
      }
    }
    this.records += plan.records;
    const fresh = this.options.empty && this.allNew(plan);
    this.note(plan);
    if (problems.length > 0) this.failed = true;
    const rows = this.failed ? null : this.rows(plan, fresh);
    if (this.failed) {
      // Once a line is refused no rows are built, but the posts and comments still exist in the file: links to
      // them are not missing (rows() notes them as it builds).
      for (const id of plan.posts.keys()) this.ids.posts.add(id);
      for (const id of plan.comments.keys()) this.ids.comments.add(id);
    }
    // Only links to records the file has not defined yet wait for the end: most name an earlier record. Into a
    // populated community most name the store's records (every comment its author), each kept once, not per line.
    for (const link of plan.links) if (!this.ids[link.table].has(link.id)) this.unresolvedCandidates.add(link);
    return { rows, problems, ignored, records: plan.records };
  }

  /** What the file as a whole says, once every line was added. */
  finish(): FinishResult {
    // Only the ids leave: the lines naming a record are asked for (linesOf) only if the store lacks it.
    const unresolved = noNamedIds();
    for (const { key, table, id } of this.unresolvedCandidates.records())
      if (!this.ids[table].has(id) && !this.rejected.has(key)) unresolved[table].push(id);
    // Only comments link posts: those the file does not hold are the store's.
    const storePosts = unresolved.posts;
    const feedReferences = [...this.pendingFeeds].map(([id, feed]) => ({
      id,
      purpose: feed.purpose ? this.derive.references(feed.purpose) : null,
      topic: feed.topic ? this.derive.references(feed.topic) : null,
    }));
    return {
      records: this.records,
      counts: {
        feeds: this.ids.feeds.size,
        profiles: this.ids.profiles.size,
        tags: this.ids.tags.size,
        calendar_events: this.ids.events.size,
        posts: this.ids.posts.size,
        comments: this.ids.comments.size,
        badges: this.ids.badges.size,
        groups: this.ids.groups.size,
      },
      unresolved,
      emails: [...this.emails.values()],
      ids: {
        feeds: [...this.ids.feeds],
        profiles: [...this.ids.profiles],
        tags: [...this.ids.tags],
        events: [...this.ids.events],
      },
      feedReferences,
      // Posts that only the store holds count the comments the file gave them.
      recountPosts: [...this.recount, ...storePosts],
      feedCounts: this.options.empty && this.feedCountsValid ? [...this.feedCounts] : null,
      late: this.late
        ? {
            posts: this.derivedMasks.posts.list(this.ids.posts),
            comments: this.derivedMasks.comments.list(this.ids.comments),
            events: this.derivedMasks.events.list(this.ids.events),
          }
        : null,
    };
  }

  /** The lines naming the records of `keys` (`table:id`) among those finish() gave as unresolved. */
  linesOf(keys: readonly string[]): LinkGroup[] {
    return this.unresolvedCandidates.groupsOf(keys);
  }

  /** No record of the chunk was given by an earlier one. */
  private allNew(plan: ImportPlan): boolean {
    const kinds = ['feeds', 'profiles', 'tags', 'events', 'posts', 'comments', 'badges', 'groups'] as const;
    for (const kind of kinds) for (const id of plan[kind].keys()) if (this.ids[kind].has(id)) return false;
    return true;
  }

  /** Ids, links and e-mails of a chunk, kept for the whole file. */
  private note(plan: ImportPlan): void {
    for (const key of plan.rejected) this.rejected.add(key);
    for (const id of plan.feeds.keys()) this.ids.feeds.add(id);
    for (const id of plan.tags.keys()) this.ids.tags.add(id);
    for (const id of plan.events.keys()) this.ids.events.add(id);
    for (const id of plan.badges.keys()) this.ids.badges.add(id);
    for (const id of plan.groups.keys()) this.ids.groups.add(id);
    for (const { line, row } of plan.profiles.values()) {
      this.ids.profiles.add(row.id);
      this.emails.delete(row.id);
      if (row.email_key)
        this.emails.set(row.id, { line, id: row.id, email: row.email ?? null, email_key: row.email_key });
      this.resolveProfile(row.id, row.chat_user_id ?? null, row.preferred_name ?? null);
    }
    for (const { row } of plan.feeds.values()) {
      if (!row.chat_channel_id) continue;
      const entry = { id: row.id, label: row.label, slug: row.slug, channel_name: row.chat_channel_name ?? row.label };
      const before = this.options.resolver.channels.get(row.chat_channel_id);
      if (this.derivedAny && JSON.stringify(before) !== JSON.stringify(entry)) this.late = true;
      this.options.resolver.channels.set(row.chat_channel_id, entry);
    }
  }

  /** Keeps the chat-user table as the store would hold it once this profile is written. */
  private resolveProfile(id: string, key: string | null, name: string | null): void {
    const previousKey = this.profileKeys.get(id);
    const users = this.options.resolver.users;
    if (previousKey !== undefined && previousKey !== key && users.get(previousKey)?.profile_id === id) {
      users.delete(previousKey);
      if (this.derivedAny) this.late = true;
    }
    if (key === null) {
      this.profileKeys.delete(id);
      return;
    }
    const before = users.get(key);
    if (this.derivedAny && (before?.profile_id !== id || before.preferred_name !== name)) this.late = true;
    users.set(key, { profile_id: id, preferred_name: name });
    this.profileKeys.set(id, key);
  }

  private rows(plan: ImportPlan, fresh: boolean): ChunkRows {
    const community_id = this.options.communityId;
    const derive = this.derive;
    const rows: ChunkRows = {
      feeds: [],
      profiles: [],
      tags: [],
      events: [],
      eventProfiles: [],
      eventTags: [],
      eventPublications: [],
      posts: [],
      comments: [],
      badges: [],
      badgeMembers: [],
      groups: [],
      groupMembers: [],
      emails: [],
      countedPosts: [],
      postFragments: { bytes: new Uint8Array(0), fragments: [] },
      fresh,
    };
    for (const feed of plan.feeds.values()) {
      rows.feeds.push({ community_id, ...feed.row });
      if (feed.derivePurpose || feed.deriveTopic)
        this.pendingFeeds.set(feed.row.id, { purpose: feed.derivePurpose, topic: feed.deriveTopic });
      else this.pendingFeeds.delete(feed.row.id);
    }
    for (const { line, row } of plan.profiles.values()) {
      rows.profiles.push({ ...row, community_id });
      if (row.email_key) rows.emails.push({ line, id: row.id, email: row.email ?? null, email_key: row.email_key });
    }
    for (const { row } of plan.tags.values()) rows.tags.push({ community_id, ...row });
    for (const { row, members } of plan.badges.values()) {
      rows.badges.push({ community_id, ...row });
      for (const { profile_id, since } of members)
        rows.badgeMembers.push({ community_id, badge_id: row.id, profile_id, assigned_at: since });
    }
    for (const { row, members } of plan.groups.values()) {
      rows.groups.push({ community_id, ...row });
      for (const { profile_id, since } of members)
        rows.groupMembers.push({ community_id, group_id: row.id, profile_id, added_at: since });
    }
    for (const event of plan.events.values()) {
      const id = event.row.id;
      let mask = 0;
      if (event.deriveDescription) mask |= DERIVED.description;
      if (event.deriveRecap) mask |= DERIVED.recap;
      this.derivedMasks.events.set(id, mask);
      rows.events.push({
        community_id,
        ...event.row,
        ...(event.deriveDescription
          ? { description_chat_blocks_references: derive.references(event.deriveDescription) }
          : {}),
        ...(event.deriveRecap ? { recap_chat_blocks_references: derive.references(event.deriveRecap) } : {}),
      });
      event.hosts.forEach((profile_id, position) =>
        rows.eventProfiles.push({ community_id, event_id: id, role: 'host', position, profile_id }),
      );
      event.speakers.forEach((profile_id, position) =>
        rows.eventProfiles.push({ community_id, event_id: id, role: 'speaker', position, profile_id }),
      );
      event.tags.forEach((tag_id, position) => rows.eventTags.push({ community_id, event_id: id, position, tag_id }));
      event.publications.forEach((p, position) =>
        rows.eventPublications.push({ community_id, event_id: id, position, ...p }),
      );
    }
    // A post's fragment takes about 2 KB.
    const fragments = new FragmentEncoder(plan.posts.size * 2048);
    // Comments first: a post written in this chunk carries the counts of the comments seen so far.
    for (const comment of plan.comments.values()) {
      const { row } = comment;
      const postId = row.post_id;
      if (this.ids.comments.has(row.id)) this.recountEverything();
      this.ids.comments.add(row.id);
      if (this.ids.posts.has(postId) && !plan.posts.has(postId)) {
        // Its post's row is written already: the store counts. (A post not in the file is the store's: see finish.)
        this.recount.add(postId);
      } else {
        const seen = this.activity.get(postId);
        if (seen) {
          seen.n++;
          if (row.created_at > seen.max) seen.max = row.created_at;
        } else this.activity.set(postId, { n: 1, max: row.created_at });
      }
      let mask = 0;
      if (comment.body_plaintext === undefined) mask |= DERIVED.plaintext;
      if (comment.references === undefined) mask |= DERIVED.references;
      this.derivedMasks.comments.set(row.id, mask);
      rows.comments.push({
        community_id,
        ...row,
        body_plaintext: comment.body_plaintext ?? derive.plaintext(comment.blocks, null),
        references: comment.references ?? derive.references(comment.blocks, null),
      });
    }
    for (const post of plan.posts.values()) {
      const { row } = post;
      const again = this.ids.posts.has(row.id);
      this.ids.posts.add(row.id);
      const body = post.body_plaintext ?? derive.plaintext(post.blocks, post.prosemirror);
      let mask = 0;
      if (post.body_plaintext === undefined) mask |= DERIVED.plaintext;
      if (post.read_time_minutes === undefined) mask |= DERIVED.readTime;
      if (post.references === undefined) mask |= DERIVED.references;
      this.derivedMasks.posts.set(row.id, mask);
      // Derived references stay a value for the fragment below, which would otherwise parse their text again.
      const references = post.references ?? derive.referencesValue(post.blocks, post.prosemirror);
      const written: Row = {
        community_id,
        ...row,
        body_plaintext: body,
        read_time_minutes: post.read_time_minutes ?? derive.readTime(body),
        references: typeof references === 'string' ? references : writeJson(references),
      };
      const activity = this.activity.get(row.id);
      if (activity) {
        this.activity.delete(row.id);
        // Its comments came first (a Slack thread's parent is handed over after its replies): their links to it,
        // noted as not yet resolved, need not be kept to the end of the file.
        this.unresolvedCandidates.forget('posts', row.id);
      }
      if (activity || !post.commentsCountGiven) {
        if (again || this.recountAll) {
          // The store counts: an earlier record of this post was written, or a comment moved between posts.
          this.recount.add(row.id);
        } else {
          // Every comment of the file so far; later ones make the store count (above). Into a populated
          // community the writer has the store count the posts it held already (their other comments).
          written['comments_count'] = activity?.n ?? 0;
          const own = String(row.latest_activity_at);
          if (activity && activity.max > own) written['latest_activity_at'] = activity.max;
          rows.countedPosts.push(row.id);
        }
      }
      if (again) this.feedCountsValid = false;
      else this.feedCounts.set(row.feed_id, (this.feedCounts.get(row.feed_id) ?? 0) + 1);
      rows.posts.push(written);
      // Rendered here, beside the parsing, rather than by the writer: from the chat message as parsed, not reparsed.
      const asStored = { ...written, chat_message: post.chatMessage, body_prosemirror: post.prosemirror, references };
      fragments.add(
        renderPost(this.options.readsBack === 'jsonb-order' ? postAsJsonb(asStored as PostRow) : (asStored as PostRow)),
      );
    }
    rows.postFragments = fragments.finish();
    this.derivedAny ||= rows.events.length + rows.posts.length + rows.comments.length > 0;
    return rows;
  }

  /** A comment given twice may have moved between posts: the store counts every post of the file. */
  private recountEverything(): void {
    for (const id of this.ids.posts) this.recount.add(id);
    this.recountAll = true;
    this.feedCountsValid = false;
  }
}
