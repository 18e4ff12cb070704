// What a Slack import read and what it left out, beside the import's own counts: the summary names skipped subtypes,
// replies whose parent is missing, and files.
export interface SlackTally {
  channels: number;
  /** Message objects read, every subtype included. */
  messages: number;
  /** Messages left out, by subtype (`channel_join`: 12); a message without an author counts as `no_author`. */
  skipped: Record<string, number>;
  /** Thread replies whose parent is not in the source (deleted, or older than the export): left out. */
  orphanReplies: number;
  /** Up to ORPHANS_NAMED of them, as `#channel thread_ts`. */
  orphansNamed: string[];
  /** Files attached to kept messages (their count goes to file_attachments_count); `hiddenFiles` of them hidden by the plan's limit. */
  files: number;
  hiddenFiles: number;
  /** Reactions kept, one per (message, emoji, user). */
  reactions: number;
}

export const ORPHANS_NAMED = 10;

export const emptyTally = (): SlackTally => ({
  channels: 0,
  messages: 0,
  skipped: {},
  orphanReplies: 0,
  orphansNamed: [],
  files: 0,
  hiddenFiles: 0,
  reactions: 0,
});

export function countSkipped(tally: SlackTally, reason: string): void {
  tally.skipped[reason] = (tally.skipped[reason] ?? 0) + 1;
}
