// Where things sit in a Slack export: the standard layout, the same one folder deep (an archive of the export's
// folder), and Enterprise Grid's (org_users.json at the top, a folder per workspace under teams/, shared channels
// at the top). Only names are read here; export-read.ts reads the files.
import { SlackExportError } from './export-zip.js';

const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.json$/;
const MARKERS = ['channels.json', 'users.json', 'org_users.json'];

export interface ExportLayout {
  /** The folder holding the export (`` or `export-folder/`). */
  prefix: string;
  /** The folders holding channel lists and channel folders: the prefix, then each Grid workspace's. */
  roots: string[];
  /** Day files by folder (`general/`, `teams/acme/general/`), oldest first. */
  days: Map<string, string[]>;
}

export function layoutOf(names: Iterable<string>): ExportLayout {
  const all = [...names];
  const set = new Set(all);
  const prefix = ['', ...new Set(all.map((name) => name.slice(0, name.indexOf('/') + 1)).filter((p) => p !== ''))].find(
    (candidate) => MARKERS.some((marker) => set.has(candidate + marker)),
  );
  if (prefix === undefined)
    throw new SlackExportError(
      'no channels.json, users.json or org_users.json at the top of the archive or one folder down: this is not a Slack export.',
    );
  const roots = [prefix];
  const days = new Map<string, string[]>();
  for (const name of all) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const team = /^teams\/([^/]+)\/channels\.json$/.exec(rest);
    if (team) roots.push(`${prefix}teams/${team[1]}/`);
    const slash = name.lastIndexOf('/');
    if (!DAY_FILE.test(name.slice(slash + 1))) continue;
    const folder = name.slice(0, slash + 1);
    const list = days.get(folder) ?? [];
    list.push(name);
    days.set(folder, list);
  }
  for (const list of days.values()) list.sort();
  return { prefix, roots, days };
}

/** A channel's day files: in the folder of the root that lists it, and at the top for a Grid shared channel. */
export function daysOfChannel(layout: ExportLayout, root: string, name: string): string[] {
  const folders = [...new Set([root, layout.prefix])].map((base) => `${base}${name}/`);
  const files = folders.flatMap((folder) => layout.days.get(folder) ?? []);
  // Oldest first across folders: by the day in the file's name.
  return files.sort(
    (a, b) => a.slice(a.lastIndexOf('/')).localeCompare(b.slice(b.lastIndexOf('/'))) || a.localeCompare(b),
  );
}
