// How plain-text rendering learns display names for mentions, without knowing where they are stored.

/** Display names for mentions; without a name (or a resolver) the raw chat id is shown. */
export interface NameResolvers {
  userName?: (chatUserId: string) => string | null | undefined;
  channelName?: (chatChannelId: string) => string | null | undefined;
}
