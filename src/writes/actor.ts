// Who makes a change: the community it belongs to, the token (or the source, for writes not made through the API)
// and the request (or run) that carries it. Every write names one; the audit record is made from it.
import { newUuid } from '../lib/ids.js';

export interface Actor {
  communityId: string;
  /** The token's id, or the source of a write made without one (`import`, `pull`, `demo`, `slack`, `cli`, `luma`). */
  tokenId: string;
  /** The request's id, or a new id per run for writes made without a request. */
  requestId: string;
}

/**
 * Sources of writes made without a token: the command line's import, a pull from another server, the demo, a Slack
 * import or sync, a Luma pull, and the command line's other writes (`hearth badge assign`, `hearth group members --set`).
 */
export type WriteSource = 'import' | 'pull' | 'demo' | 'slack' | 'cli' | 'luma';

/** The actor of a write made without a token, with an id of its own for the run. */
export const sourceActor = (communityId: string, source: WriteSource): Actor => ({
  communityId,
  tokenId: source,
  requestId: newUuid(),
});
