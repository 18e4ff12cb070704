// Finding URLs in text and classifying them as the references object reports them (spec 2.7).

export interface UrlFlags {
  is_embedded_media: boolean;
  is_image: boolean;
  is_video: boolean;
}

// Stops where chat markup would end a link (`<url|label>`) as well as at whitespace.
const BARE_URL = /\bhttps?:\/\/[^\s<>|"]+/gi;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', "'", '*']);
const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg', '.avif'];
const VIDEO_EXTENSIONS = ['.mp4', '.mov', '.webm', '.m4v'];
const VIDEO_HOSTS = ['youtube.com', 'youtu.be', 'vimeo.com', 'loom.com'];

/** BARE_URL's start: a text without it holds no URL. */
const URL_START = /\bhttps?:\/\//i;

/** The http(s) URLs written out in prose, in order, without the punctuation that ends a sentence. */
export function findBareUrls(text: string): string[] {
  // Most text holds no URL: one test says so, without an iterator and arrays for no match.
  if (!URL_START.test(text)) return [];
  return [...text.matchAll(BARE_URL)]
    .map((match) => trimTrailingPunctuation(match[0]))
    .filter((url) => parseHttpUrl(url) !== undefined);
}

/** The URL when it is an absolute http(s) URL with a host, else undefined. */
export function parseHttpUrl(candidate: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return undefined;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
}

export function urlFlags(url: URL): UrlFlags {
  const path = url.pathname.toLowerCase();
  const host = url.hostname.toLowerCase();
  const is_image = IMAGE_EXTENSIONS.some((extension) => path.endsWith(extension));
  const is_video =
    VIDEO_EXTENSIONS.some((extension) => path.endsWith(extension)) ||
    VIDEO_HOSTS.some((domain) => host === domain || host.endsWith(`.${domain}`));
  return { is_embedded_media: is_image || is_video, is_image, is_video };
}

function trimTrailingPunctuation(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url.charAt(end - 1);
    // A closing parenthesis belongs to the URL only when it closes one the URL opened (Wikipedia links).
    const unbalancedParen = last === ')' && count(url.slice(0, end), '(') < count(url.slice(0, end), ')');
    if (!TRAILING_PUNCTUATION.has(last) && !unbalancedParen) return url.slice(0, end);
    end -= 1;
  }
}

function count(text: string, character: string): number {
  return text.split(character).length - 1;
}
