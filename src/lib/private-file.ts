// A file only its owner may read (0600), written whole or not at all: into a hidden file beside it, then moved into
// place, so that a failed or interrupted write leaves no half of it under its name.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, linkSync, openSync, renameSync, rmSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Where `write` puts the contents: the hidden file's path, and a descriptor open on it for writing. */
export interface PartialFile {
  path: string;
  fd: number;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** Refuses, before any work, a name that cannot be written: a folder that is missing, a file there without `force`. */
function checkTarget(path: string, force: boolean): void {
  const folder = dirname(path);
  const folderStats = statOrNull(folder);
  if (!folderStats) throw new Error(`No folder '${folder}' to write ${path} into: create it first.`);
  if (!folderStats.isDirectory()) throw new Error(`'${folder}' is not a folder.`);
  const existing = statOrNull(path);
  if (existing?.isDirectory()) throw new Error(`${path} is a folder: name a file.`);
  if (existing && !force) throw new Error(`${path} already exists: choose another name, or replace it with --force.`);
}

/** Writes `path` through `write`, mode 0600; an existing file is replaced only with `force`. Returns its size. */
export async function writePrivately(
  path: string,
  force: boolean,
  write: (partial: PartialFile) => Promise<void>,
): Promise<number> {
  checkTarget(path, force);
  const partial = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`);
  const fd = openSync(partial, 'wx', 0o600);
  let open = true;
  try {
    // The mode asked for at creation passes through the umask, which may leave it narrower than 0600 but never wider.
    fchmodSync(fd, 0o600);
    await write({ path: partial, fd });
    closeSync(fd);
    open = false;
    if (force) renameSync(partial, path);
    else {
      // A file made under that name since the check is kept: linking refuses an existing name, where renaming would not.
      try {
        linkSync(partial, path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST')
          throw new Error(`${path} already exists: choose another name, or replace it with --force.`);
        throw error;
      }
      rmSync(partial);
    }
  } catch (error) {
    if (open) closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  }
  return statSync(path).size;
}
