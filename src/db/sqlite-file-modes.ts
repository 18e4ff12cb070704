// The SQLite store's files are its owner's alone: a new data folder is made 0700 and a new database file 0600, and
// on every open the folder, the file and its -wal/-shm left wider by an older version are tightened to those modes.
import { chmodSync, closeSync, mkdirSync, openSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';

/** A file or folder whose mode an open tightened. */
export interface ModeChange {
  path: string;
  /** Octal, as `ls` and `chmod` write it: `644`. */
  from: string;
  to: string;
}

/** The one line logged when an open tightened something, with the changes beside it. */
export const TIGHTENED_MESSAGE =
  "tightened the store's files to their owner alone: they hold members' e-mail addresses";

/** The changes as one line of text, for the command line: `data 755 → 700, data/hearth.db 644 → 600`. */
export const describeModeChanges = (changes: readonly ModeChange[]): string =>
  changes.map((c) => `${c.path} ${c.from} → ${c.to}`).join(', ');

const octal = (mode: number): string => (mode & 0o777).toString(8);

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * A folder others rely on is left as it is: one shared with the sticky bit (`/tmp`), another user's, the working
 * directory or the home directory (a database written straight into them).
 */
function isSharedFolder(folder: string, stats: Stats, uid: number): boolean {
  const path = resolve(folder);
  return (stats.mode & 0o1000) !== 0 || stats.uid !== uid || path === process.cwd() || path === homedir();
}

/**
 * Makes the data folder (0700) and an empty database file (0600) before SQLite opens the file, which it would
 * create world-readable (its `-wal` and `-shm` files take the main file's mode); then tightens what an older
 * version left wider. Returns what it changed. POSIX only: elsewhere modes mean nothing and nothing changes.
 */
export function preparePrivately(path: string): ModeChange[] {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const uid = process.getuid?.();
  if (uid === undefined) return [];
  const changes: ModeChange[] = [];
  const tighten = (target: string, stats: Stats | null, mode: number) => {
    if (!stats || stats.uid !== uid || (stats.mode & 0o777 & ~mode) === 0) return;
    chmodSync(target, mode);
    changes.push({ path: target, from: octal(stats.mode), to: octal(mode) });
  };
  const folderStats = statOrNull(folder);
  if (folderStats && !isSharedFolder(folder, folderStats, uid)) tighten(folder, folderStats, 0o700);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) tighten(file, statOrNull(file), 0o600);
  return changes;
}
