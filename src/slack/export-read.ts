// The lists of a Slack export: users (users.json, Grid's org_users.json and each workspace's) and channels
// (channels.json; groups.json for private channels), each checked to be a JSON array, merged by id.
import { isRecord, type JsonRecord } from '../content/loose-json.js';
import type { ExportLayout } from './export-layout.js';
import { SlackExportError, type ExportArchive } from './export-zip.js';
import { channelOf, type SlackChannel } from './slack-feeds.js';

/** An entry that must hold an array (of users, channels or a day's messages). */
export async function readArray(archive: ExportArchive, name: string): Promise<unknown[]> {
  const value = await archive.readJson(name);
  if (!Array.isArray(value)) throw new SlackExportError(`entry '${name}' is not a JSON array; nothing was imported.`);
  return value;
}

export async function readUsers(archive: ExportArchive, layout: ExportLayout): Promise<JsonRecord[]> {
  const users = new Map<string, JsonRecord>();
  const files = [`${layout.prefix}org_users.json`, ...layout.roots.map((root) => `${root}users.json`)].filter((name) =>
    archive.has(name),
  );
  for (const name of files) {
    for (const user of await readArray(archive, name)) {
      if (isRecord(user) && typeof user.id === 'string' && !users.has(user.id)) users.set(user.id, user);
    }
  }
  return [...users.values()];
}

export interface ListedChannel {
  channel: SlackChannel;
  /** The folder whose list named it: where its day files are looked for first. */
  root: string;
}

export async function readChannels(
  archive: ExportArchive,
  layout: ExportLayout,
  includePrivate: boolean,
): Promise<ListedChannel[]> {
  const channels = new Map<string, ListedChannel>();
  for (const root of layout.roots) {
    const lists: [string, boolean][] = [[`${root}channels.json`, false]];
    if (includePrivate) lists.push([`${root}groups.json`, true]);
    for (const [name, isPrivate] of lists) {
      if (!archive.has(name)) continue;
      for (const raw of await readArray(archive, name)) {
        const channel = channelOf(raw, isPrivate);
        if (channel && !channels.has(channel.id)) channels.set(channel.id, { channel, root });
      }
    }
  }
  return [...channels.values()];
}
