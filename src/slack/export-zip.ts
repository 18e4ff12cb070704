// A Slack export ZIP read in place (yauzl: the central directory first, then one entry at a time), never unpacked
// or loaded whole: entry names decoded as Slack writes them (UTF-8 without the flag), names that would reach
// outside the archive's folders refused, and what the entries expand to bounded before anything is read.
import { once } from 'node:events';
import { open as openZip, getFileNameLowLevel, validateFileName, type Entry, type ZipFile } from 'yauzl';
import { jsonParseProblem } from '../lib/json-parse-problem.js';

/** Bounds on what an archive may expand to; past one, the import stops before reading anything. */
export interface ZipLimits {
  /** All entries together, as their headers declare (checked again while reading). */
  totalBytes: number;
  /** One JSON entry: it is parsed whole (a channel's day, the user list). */
  entryBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { totalBytes: 32 * 2 ** 30, entryBytes: 256 * 2 ** 20 };

/** A problem of the archive itself; the message names the entry. */
export class SlackExportError extends Error {}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const UTF8_FLAG = 0x800;

/** Slack leaves the UTF-8 flag unset on names it writes in UTF-8: read them as UTF-8 whenever they are valid UTF-8. */
function nameOf(entry: Entry): string {
  const raw = entry.fileNameRaw;
  if ((entry.generalPurposeBitFlag & UTF8_FLAG) === 0 && !entry.extraFields.some((field) => field.id === 0x7075)) {
    try {
      return UTF8.decode(raw);
    } catch {
      // Not UTF-8: the ZIP standard's own code page, as yauzl reads it.
    }
  }
  return getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true);
}

const NOTHING = Buffer.alloc(0);

/**
 * The entry without what its name and validation needed (the name's raw bytes, extra fields, comment): yauzl reads an
 * entry by its offset, sizes and flags alone. An export holds an entry per channel and day (20,000 in a generated 1M
 * export), and these views were three Buffers of each, kept for the whole import.
 */
function withoutHeaders(entry: Entry): Entry {
  entry.fileNameRaw = NOTHING;
  entry.fileName = '';
  entry.extraFieldRaw = NOTHING;
  entry.extraFields = [];
  entry.fileCommentRaw = NOTHING;
  entry.fileComment = '';
  entry.comment = '';
  return entry;
}

export class ExportArchive {
  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    private readonly limits: ZipLimits,
  ) {}

  static async open(path: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ExportArchive> {
    let zip: ZipFile;
    try {
      zip = await new Promise<ZipFile>((resolve, reject) =>
        openZip(
          path,
          {
            lazyEntries: true,
            autoClose: false,
            decodeStrings: false,
            validateEntrySizes: true,
            strictFileNames: true,
          },
          (error, file) => (error ? reject(error) : resolve(file)),
        ),
      );
    } catch (error) {
      throw new SlackExportError(`'${path}' is not a readable ZIP archive (${(error as Error).message}).`);
    }
    const entries = new Map<string, Entry>();
    let total = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        const name = nameOf(entry);
        if (validateFileName(name) !== null || name.includes('\u0000'))
          throw new SlackExportError(`entry '${name}' is outside the archive's folders; nothing was imported.`);
        if (name.endsWith('/')) continue;
        total += entry.uncompressedSize;
        if (total > limits.totalBytes)
          throw new SlackExportError(
            `the archive expands past ${limits.totalBytes} bytes (at entry '${name}'); nothing was imported.`,
          );
        entries.set(name, withoutHeaders(entry));
      }
    } catch (error) {
      zip.close();
      if (error instanceof SlackExportError) throw error;
      throw new SlackExportError(`'${path}' is not a readable ZIP archive (${(error as Error).message}).`);
    }
    return new ExportArchive(zip, entries, limits);
  }

  /** Every file's name, as decoded. */
  names(): IterableIterator<string> {
    return this.entries.keys();
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The entry parsed as JSON; a clear error naming it when it is too large, cut short or not JSON. */
  async readJson(name: string): Promise<unknown> {
    const entry = this.entries.get(name);
    if (!entry) throw new SlackExportError(`entry '${name}' is missing.`);
    if (entry.uncompressedSize > this.limits.entryBytes)
      throw new SlackExportError(
        `entry '${name}' expands to ${entry.uncompressedSize} bytes, past the bound of ${this.limits.entryBytes}; nothing was imported.`,
      );
    const chunks: Buffer[] = [];
    try {
      const stream = await this.zip.openReadStreamPromise(entry);
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      await once(stream, 'end');
    } catch (error) {
      throw new SlackExportError(`entry '${name}' cannot be read (${(error as Error).message}); nothing was imported.`);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new SlackExportError(
        `entry '${name}' is not valid JSON (${jsonParseProblem(error, text)}); nothing was imported.`,
      );
    }
  }

  close(): void {
    this.zip.close();
  }
}
