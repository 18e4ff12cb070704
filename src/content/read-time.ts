// Reading time of a post body (DECISIONS "Feeds and posts": words / 200, rounded up, at least 1).

const WORDS_PER_MINUTE = 200;

export function readTimeMinutes(text: string): number {
  const words = text.split(/\s+/).filter((word) => word !== '').length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
