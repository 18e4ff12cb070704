// The webhook message of a registration change, in the hosted product's own payload (sent as the whole body).
import type { ProfileRow } from '../profiles/profiles.repository.js';
import type { EventRow } from '../events/events.repository.js';
import type { OutgoingEvent } from '../webhooks/webhook-outbox.js';

export type RegistrationAction = 'calendar_event.user_registered' | 'calendar_event.user_unregistered';

/** A stored timestamp (`2026-03-10 12:00:00.123456+00`) as ISO 8601 with milliseconds and `Z`. */
export const isoMillis = (stored: string): string => `${stored.slice(0, 10)}T${stored.slice(11, 23)}Z`;

/** First and last name when the profile has them, else its preferred name. */
function realNameOf(row: ProfileRow): string | null {
  const parts = [row.first_name, row.last_name].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? parts.join(' ') : row.preferred_name;
}

/**
 * `version`, `action`, `status`, `date`, `custom_metadata`, `event` {id, title, slug} and `user` {id, first_name,
 * last_name, real_name, display_name, email, profile_id}: a member's id is its profile's id in Hearth, so `user.id`
 * and `user.profile_id` are the same.
 */
export function registrationMessage(
  action: RegistrationAction,
  event: EventRow,
  profile: ProfileRow,
  at: string,
): OutgoingEvent {
  const body = {
    version: '1.0',
    action,
    status: action === 'calendar_event.user_registered' ? 'registered' : 'unregistered',
    date: isoMillis(at),
    custom_metadata: event.webhook_custom_metadata,
    event: { id: event.id, title: event.title, slug: event.slug },
    user: {
      id: profile.id,
      first_name: profile.first_name,
      last_name: profile.last_name,
      real_name: realNameOf(profile),
      display_name: profile.preferred_name,
      email: profile.email,
      profile_id: profile.id,
    },
  };
  return { type: action, data: body, body };
}
