// Request and response schemas of the calendar routes: the admin .ics takes the event list's filters (no pages).
import { Type, type Static } from '@sinclair/typebox';
import { EventListQuery } from '../events/events.schemas.js';

export const CalendarQuery = Type.Omit(EventListQuery, ['page', 'per_page']);
export type CalendarQuery = Static<typeof CalendarQuery>;

export const SubscriptionParams = Type.Object({
  secret: Type.String({ minLength: 1, maxLength: 128, description: 'The secret of a subscribe URL (`hcal_…`)' }),
});

/** An iCalendar document (RFC 5545) as the 200 answer's only content. */
export const CalendarBody = (description: string) => ({
  description,
  content: {
    'text/calendar': {
      schema: Type.String({ description: 'RFC 5545 iCalendar: VCALENDAR with VTIMEZONE and VEVENT components' }),
    },
  },
});

export const IfNoneMatchHeader = Type.Object({
  'if-none-match': Type.Optional(
    Type.String({ description: 'The ETag of an earlier answer; when still current, the answer is 304 without a body' }),
  ),
});
