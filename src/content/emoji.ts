// Turning the chat product's emoji codepoint notation ("1f44d", "1f1fa-1f1f8") into characters.

const CODEPOINT = /^[0-9a-f]{1,6}$/i;
const MAX_CODEPOINT = 0x10ffff;

/** The emoji as a string, or null when the notation is not a list of valid codepoints. */
export function emojiFromCodepoints(unicode: string): string | null {
  let emoji = '';
  for (const part of unicode.split('-')) {
    if (!CODEPOINT.test(part)) return null;
    const codepoint = Number.parseInt(part, 16);
    // String.fromCodePoint throws beyond this, and the walkers must never throw.
    if (codepoint > MAX_CODEPOINT) return null;
    emoji += String.fromCodePoint(codepoint);
  }
  return emoji;
}
