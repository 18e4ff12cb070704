// Slack's emoji short names (`:tada:`, `:+1::skin-tone-3:`) to their characters, for text written in mrkdwn. The
// table holds the common names (emoji-names.json); a name it lacks (a custom emoji, a rarer one) stays `:name:`.
import table from './emoji-names.json' with { type: 'json' };

const codepoints: Readonly<Record<string, string>> = table;
const SKIN_TONE = /^(.+)::skin-tone-([2-6])$/;

/** The emoji's codepoints in Slack's notation (`1f44d-1f3fc`), or undefined when the name is not in the table. */
export function emojiCodepoints(name: string): string | undefined {
  const toned = SKIN_TONE.exec(name);
  const base = codepoints[toned?.[1] ?? name];
  if (base === undefined || !Object.hasOwn(codepoints, toned?.[1] ?? name)) return undefined;
  if (!toned) return base;
  // skin-tone-2 … skin-tone-6 are the modifiers U+1F3FB … U+1F3FF, placed after the base (without its FE0F).
  const modifier = (0x1f3fb + Number(toned[2]) - 2).toString(16);
  return `${base.replace(/-fe0f$/, '')}-${modifier}`;
}
