// The lines a Slack import or sync ends with: the import's counts, as `hearth import` says them, then what Slack
// held that was left out (skipped subtypes, replies without their parent) and the files.
import type { ImportSummary } from '../import/import.service.js';
import type { SlackTally } from '../slack/slack-tally.js';

export function importCounts(summary: ImportSummary): string {
  const parts = Object.entries(summary)
    .filter(([k, v]) => k !== 'records' && v > 0)
    .map(([k, v]) => `${v} ${k}`);
  return parts.length ? `: ${parts.join(', ')}` : '';
}

export function slackLines(tally: SlackTally): string[] {
  const lines = [`Slack: ${tally.messages} messages in ${tally.channels} channels, ${tally.reactions} reactions.`];
  const skipped = Object.entries(tally.skipped).sort(([a], [b]) => a.localeCompare(b));
  if (skipped.length > 0)
    lines.push(
      `Skipped ${skipped.reduce((n, [, c]) => n + c, 0)} messages by subtype: ${skipped.map(([s, c]) => `${s} ${c}`).join(', ')}.`,
    );
  if (tally.orphanReplies > 0)
    lines.push(
      `Left out ${tally.orphanReplies} thread ${tally.orphanReplies === 1 ? 'reply' : 'replies'} whose parent is missing: ${tally.orphansNamed.join(', ')}${tally.orphansNamed.length < tally.orphanReplies ? ', …' : ''}.`,
    );
  if (tally.files > 0)
    lines.push(
      `Files: ${tally.files} attached (counted, not copied)${tally.hiddenFiles > 0 ? `, ${tally.hiddenFiles} of them hidden by the plan's limit` : ''}.`,
    );
  return lines;
}
