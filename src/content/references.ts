// The references object (spec 2.7) derived from rich-text blocks or a ProseMirror document.
import { emptyReferences, type References } from '../schemas/references.js';
import { blockLeaves } from './blocks.js';
import { isRecord, nonEmptyStringOf, recordsOf, stringOf, type JsonRecord } from './loose-json.js';
import { prosemirrorNodes } from './prosemirror.js';
import { findBareUrls, parseHttpUrl, urlFlags } from './urls.js';

/** How chat ids become community records; undefined means "not one of ours", and the mention is left out. */
export interface ReferenceResolver {
  userByChatId(id: string): { profile_id: string; preferred_name: string | null } | undefined;
  feedByChannelId(id: string): { id: string; label: string; slug: string; channel_name: string | null } | undefined;
}

export function extractReferences(blocks: unknown, resolve: ReferenceResolver): References {
  const found = new ReferenceCollector(resolve);
  for (const leaf of blockLeaves(blocks)) {
    switch (leaf.type) {
      case 'user':
        found.user(stringOf(leaf.user_id));
        break;
      case 'channel':
        found.channel(stringOf(leaf.channel_id));
        break;
      case 'emoji':
        found.customEmoji(nonEmptyStringOf(leaf.name), stringOf(leaf.url));
        break;
      case 'link':
        found.url(stringOf(leaf.url));
        break;
      case 'text':
        found.urlsIn(stringOf(leaf.text));
        break;
    }
  }
  return found.references;
}

export function extractProsemirrorReferences(doc: unknown, resolve: ReferenceResolver): References {
  const found = new ReferenceCollector(resolve);
  for (const node of prosemirrorNodes(doc)) {
    if (node.type === 'mention') {
      found.user(isRecord(node.attrs) ? stringOf(node.attrs.id) : undefined);
    } else if (node.type === 'text') {
      const hrefs = linkHrefs(node);
      // Linked text names its target in the mark; its wording is a label, not another URL.
      if (hrefs.length > 0) hrefs.forEach((href) => found.url(href));
      else found.urlsIn(stringOf(node.text));
    }
  }
  return found.references;
}

function linkHrefs(node: JsonRecord): string[] {
  return recordsOf(node.marks).flatMap((mark) =>
    mark.type === 'link' && isRecord(mark.attrs) ? (stringOf(mark.attrs.href) ?? []) : [],
  );
}

/** Accumulates references in order of first appearance, each one once. */
class ReferenceCollector {
  readonly references: References = emptyReferences();
  readonly #seenUsers = new Set<string>();
  readonly #seenChannels = new Set<string>();
  readonly #seenEmojis = new Set<string>();
  readonly #seenUrls = new Set<string>();

  constructor(private readonly resolve: ReferenceResolver) {}

  user(chatUserId: string | undefined): void {
    if (!chatUserId || !firstSight(this.#seenUsers, chatUserId)) return;
    const profile = this.resolve.userByChatId(chatUserId);
    if (!profile) return;
    this.references.mentioned_chat_users.push({
      profile_id: profile.profile_id,
      preferred_name: profile.preferred_name,
      chat_user_id: chatUserId,
    });
  }

  channel(chatChannelId: string | undefined): void {
    if (!chatChannelId || !firstSight(this.#seenChannels, chatChannelId)) return;
    const feed = this.resolve.feedByChannelId(chatChannelId);
    if (!feed) return;
    this.references.mentioned_chat_channels.push({
      chat_channel: { id: chatChannelId, name: feed.channel_name ?? feed.label },
      feed: { id: feed.id, label: feed.label, slug: feed.slug },
    });
  }

  /** Only custom emojis carry a url; standard ones carry unicode codepoints and are not references. */
  customEmoji(name: string | undefined, url: string | undefined): void {
    if (!name || url === undefined || !parseHttpUrl(url.trim())) return;
    if (!firstSight(this.#seenEmojis, name)) return;
    this.references.custom_emojis.push({ alias: name, name, url: url.trim() });
  }

  url(candidate: string | undefined): void {
    const written = candidate?.trim();
    const parsed = written ? parseHttpUrl(written) : undefined;
    if (!written || !parsed || !firstSight(this.#seenUrls, written)) return;
    this.references.urls.push({ order_seen: this.references.urls.length, ...urlFlags(parsed), url: written });
  }

  urlsIn(text: string | undefined): void {
    if (text) findBareUrls(text).forEach((url) => this.url(url));
  }
}

/** True the first time a key is offered to the set. */
function firstSight(seen: Set<string>, key: string): boolean {
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}
