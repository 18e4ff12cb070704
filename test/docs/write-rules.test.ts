// The write rules of docs/writes-and-webhooks.md and the README name every field an event create requires, as the schema does.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CreateEventBody } from '../../src/events/event-writes.schemas.js';

describe('the write rules', () => {
  it("name the event create's required fields, description included", () => {
    const page = readFileSync(new URL('../../docs/writes-and-webhooks.md', import.meta.url), 'utf8');
    expect(CreateEventBody.required).toEqual(['title', 'start_date', 'end_date', 'hosts', 'description']);
    expect(page).toContain(
      'Write rules: a create needs `title`, `start_date`, `end_date`, `hosts` and `description`; the rest may be left out.',
    );
  });

  it('are named in the README too, where a newcomer reads first', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      'Events are created (a create needs `title`, `start_date`, `end_date`, `hosts` and `description`), changed',
    );
  });
});
