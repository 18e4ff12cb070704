// Where each part of an iCalendar file is: content lines unfolded (RFC 5545 3.1) with the line each starts on,
// every line checked by ical.js's own property parser and BEGIN/END checked to nest, so a malformed file is
// named by its line (`feed.ics:42: …`) before ical.js parses it whole (which says what, but not where).
import ICAL from 'ical.js';

/** A refusal of the file, naming it and the line. */
export class FeedError extends Error {}

export const feedError = (name: string, line: number, message: string): FeedError =>
  new FeedError(`${name}:${line}: ${message}`);

/** Where a VEVENT and each of its properties (the first of each name) begin. */
export interface EventLines {
  begin: number;
  properties: Map<string, number>;
}

/** The VEVENTs of the file's calendar in order, as ical.js lists them. */
export function checkLines(text: string, name: string): EventLines[] {
  const physical = text.split(/\r\n|\n|\r/);
  const logical: { text: string; line: number }[] = [];
  physical.forEach((raw, i) => {
    const last = logical[logical.length - 1];
    if ((raw.startsWith(' ') || raw.startsWith('\t')) && last) last.text += raw.slice(1);
    else if (raw !== '') logical.push({ text: raw, line: i + 1 });
  });
  if (logical.length === 0) throw feedError(name, 1, 'the file is empty; expected BEGIN:VCALENDAR');
  const stack: { component: string; line: number }[] = [];
  const events: EventLines[] = [];
  let current: EventLines | null = null;
  let ended = false;
  for (const { text: content, line } of logical) {
    if (ended) throw feedError(name, line, 'content after END:VCALENDAR');
    // BEGIN and END are the parser's own structure, not properties it reads alone.
    const edge = /^(BEGIN|END):(.+)$/i.exec(content);
    let key: string;
    if (edge) key = (edge[1] ?? '').toLowerCase();
    else {
      try {
        key = ICAL.parse.property(content)[0];
      } catch (error) {
        throw feedError(name, line, error instanceof Error ? error.message : String(error));
      }
    }
    const upper = (edge?.[2] ?? '').trim().toUpperCase();
    if (stack.length === 0 && (key !== 'begin' || upper !== 'VCALENDAR'))
      throw feedError(name, line, `expected BEGIN:VCALENDAR, found '${content.slice(0, 60)}'`);
    if (key === 'begin') {
      stack.push({ component: upper, line });
      if (upper === 'VEVENT' && stack.length === 2) {
        current = { begin: line, properties: new Map() };
        events.push(current);
      }
    } else if (key === 'end') {
      const open = stack.pop();
      if (!open || open.component !== upper)
        throw feedError(name, line, `END:${upper} does not close ${open ? `BEGIN:${open.component}` : 'anything'}`);
      if (upper === 'VEVENT') current = null;
      if (stack.length === 0) ended = true;
    } else if (current && stack.length === 2 && !current.properties.has(key)) current.properties.set(key, line);
  }
  const open = stack.pop();
  if (open) throw feedError(name, open.line, `BEGIN:${open.component} is never ended`);
  return events;
}
