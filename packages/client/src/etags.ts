// The ETag of each answer a client gave, kept beside the value it resolved to, for `If-Match` on a later change.
export class AnswerEtags {
  // Weak: an ETag lives as long as the value it came with, and values never change hands through it.
  readonly #byValue = new WeakMap<object, string>();

  /** Remembers the answer's `ETag` header, if it has one, for `value` (the `data` the call resolved to). */
  remember(value: unknown, response: Response): void {
    const etag = response.headers.get('etag');
    if (etag !== null && typeof value === 'object' && value !== null) this.#byValue.set(value, etag);
  }

  /** The ETag of the answer `value` came from; throws when this client gave no such value or its answer had none. */
  of(value: object): string {
    const etag = this.#byValue.get(value);
    if (etag === undefined) {
      throw new TypeError(
        'No ETag is known for this value: pass a record or page as a method of this client resolved to it (a GET, a create or an update)',
      );
    }
    return etag;
  }
}
