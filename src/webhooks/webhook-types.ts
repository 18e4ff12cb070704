// The event types webhooks announce, and the patterns (`member.*`, `*`) a webhook subscribes with.

const webhookEventTypes = [
  'calendar_event.created',
  'calendar_event.updated',
  'calendar_event.deleted',
  'calendar_event.user_registered',
  'calendar_event.user_unregistered',
  'member.created',
  'member.updated',
  'member.deactivated',
  'member.badge_assigned',
  'group.members_changed',
  'import.completed',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** `*`, `kind.*` or one exact type: a pattern that matches no known type is refused. */
export function parseEventPatterns(text: string): string[] {
  const patterns = [
    ...new Set(
      text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = patterns.filter((p) => !webhookEventTypes.some((type) => matches(p, type)));
  if (patterns.length === 0 || unknown.length > 0) {
    throw new Error(
      `Unknown event type(s) '${unknown.join(',') || text}'; known: ${webhookEventTypes.join(', ')} (or kind.*, or *).`,
    );
  }
  return patterns;
}

function matches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export const subscribes = (eventTypes: string, type: WebhookEventType): boolean =>
  eventTypes.split(',').some((p) => matches(p, type));
