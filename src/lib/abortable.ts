// Reading a source until a signal says stop: a wait for the next piece of a stream (stdin left open) ends at once.
/**
 * Yields `source`'s pieces until `signal` aborts, then throws its reason, also while waiting for a piece that has
 * not come; the source is then asked to end (a stream destroyed, once it is no longer waiting).
 */
export async function* untilAborted<T>(
  source: AsyncIterable<T> | Iterable<T>,
  signal: AbortSignal | undefined,
): AsyncGenerator<T> {
  if (!signal) return yield* source;
  if (!(Symbol.asyncIterator in source)) {
    for (const piece of source) {
      signal.throwIfAborted();
      yield piece;
    }
    return;
  }
  const pieces = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      signal.throwIfAborted();
      const next = await nextOrAbort(pieces, signal);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a stream's iterator waiting for a piece settles its return only once that piece comes. Whoever
    // owns a stream left waiting so (stdin kept open) destroys it.
    Promise.resolve(pieces.return?.()).catch(() => undefined);
  }
}

/** The next piece, or the signal's reason as soon as it aborts; the listener goes with each piece (none pile up). */
function nextOrAbort<T>(pieces: AsyncIterator<T>, signal: AbortSignal): Promise<IteratorResult<T>> {
  return new Promise((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    pieces.next().then(
      (next) => {
        signal.removeEventListener('abort', stop);
        resolve(next);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
  });
}
