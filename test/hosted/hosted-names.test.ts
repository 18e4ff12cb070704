// The rename rule and its published list: the list names every key of the document with `chat` or `partner` in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostedKey, isOpaqueKey, renamedKeys, specKey } from '../../src/hosted/hosted-names.js';
import { hostedMessageTs, hostedTimestamp } from '../../src/hosted/hosted-answer.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { hostedRenames } from '../fixtures/hosted.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every property name of every schema of the document. */
function propertyNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) propertyNames(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'properties' && typeof inner === 'object' && inner !== null)
        for (const name of Object.keys(inner)) into.add(name);
      if (key !== 'examples' && key !== 'example') propertyNames(inner, into);
    }
  }
  return into;
}

describe('the rename rule', () => {
  it('renames whole words only, both ways', () => {
    expect(
      ['chat_message', 'mentioned_chat_users', 'partner_event_id', 'chatter', 'partners_count', 'slack_id'].map(
        hostedKey,
      ),
    ).toEqual(['slack_message', 'mentioned_slack_users', 'luma_event_id', 'chatter', 'partners_count', 'slack_id']);
    for (const key of renamedKeys) expect(specKey(hostedKey(key))).toBe(key);
  });

  it('leaves block contents and document bodies alone', () => {
    expect(
      [
        'blocks',
        'body_prosemirror',
        'recap_chat_blocks',
        'description_slack_blocks',
        'recap_chat_blocks_references',
      ].map(isOpaqueKey),
    ).toEqual([true, true, true, true, false]);
  });

  it('writes timestamps as the hosted product does', () => {
    expect(
      [
        '2026-02-07 18:04:05.123000+00',
        '2026-02-07 18:04:05.000000+00',
        '2026-02-07 18:04:05.000001+00',
        '2026-02-07 18:04:05.100000+00',
        null,
      ].map(hostedTimestamp),
    ).toEqual([
      '2026-02-07T18:04:05.123+00:00',
      '2026-02-07T18:04:05+00:00',
      '2026-02-07T18:04:05.000001+00:00',
      '2026-02-07T18:04:05.1+00:00',
      null,
    ]);
    expect([1772359200.123456, 1772359200, 1772668800.0001, null].map(hostedMessageTs)).toEqual([
      '1772359200.123456',
      '1772359200.000000',
      '1772668800.000100',
      null,
    ]);
  });
});

describe('the published list', () => {
  it('is every key of the OpenAPI document with a chat or partner word, and the issue’s list', () => {
    const names = [...propertyNames(t.app.swagger())].filter((name) => /(^|_)(chat|partner)(_|$)/.test(name)).sort();
    expect(names).toEqual([...renamedKeys]);
    expect(Object.fromEntries(renamedKeys.map((key) => [key, hostedKey(key)]))).toEqual(hostedRenames);
  });

  it('is in the description of the document', () => {
    const { info } = t.app.swagger() as { info: { description: string } };
    expect(info.description).toContain('`partner_event_id` → `luma_event_id`');
    expect(info.description).toContain(
      '`chat_channel_purpose_chat_blocks_references` → `slack_channel_purpose_slack_blocks_references`',
    );
  });
});
