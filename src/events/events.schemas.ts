// Request and response schemas of the calendar-event endpoints (spec 4.1, 4.2).
import { Type, type Static } from '@sinclair/typebox';
import { One, PageOf, PageQuery, ShortId, StringEnum, Uuid } from '../schemas/common.js';
import { CalendarEvent, eventStatuses } from '../schemas/event.js';

export const EventParams = Type.Object({ calendar_event_id: ShortId });

export const EventListQuery = Type.Object({
  ...PageQuery,
  time_filter: Type.Optional(
    StringEnum(['upcoming', 'past'], {
      description:
        'upcoming: ends after now (ongoing included), start ascending; past: started before now, start descending',
    }),
  ),
  date_filter: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      // No `examples`: the docs page would fill one in for "Try it out", and a date filter changes the answer.
      description:
        'ISO 8601 date (`2026-03-08`) or date-time (`2026-03-08T09:00:00-07:00`); events overlapping that calendar day in its own offset. Overrides time_filter.',
    }),
  ),
  status: Type.Optional(
    StringEnum(eventStatuses, { default: 'published', description: 'Absent means published only' }),
  ),
  published_to_site: Type.Optional(Type.Boolean()),
  is_unlisted: Type.Optional(Type.Boolean()),
  feed_id: Type.Optional(Uuid),
});
export type EventListQuery = Static<typeof EventListQuery>;

export const EventResponse = One(CalendarEvent);
export const EventPageResponse = PageOf(CalendarEvent);
