// Socket Mode, for a server with no public URL: `hearth serve` holds one socket per community whose connection has
// an app-level token (the official @slack/socket-mode client: apps.connections.open, `hello`, a new socket after a
// `disconnect` or a lost one). Each `events_api` envelope goes to the inbox through the request URL's intake (the
// same dedupe on event_id) and is acknowledged only once its write committed: an envelope not acknowledged is sent
// again by Slack, so nothing is lost if the write fails or the process dies first. The applier does the rest. The
// client is loaded only when a connection holds an app-level token: other servers do not hold it in memory.
import type { SocketModeClient } from '@slack/socket-mode';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import type { InboxIntake } from '../slack-inbox/inbox-intake.js';
import { socketModeConnections } from './slack-connections.repository.js';
import { slackApiBase } from './web-api.js';

export interface SocketModeOptions {
  store: Store;
  intake: InboxIntake;
  /** Slack's Web API (config SLACK_API_URL), where apps.connections.open is asked for each socket's URL. */
  apiUrl: string;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;
}

/** What the socket client is handed for each message: the envelope's payload and its acknowledgement. */
interface SocketEvent {
  type: string;
  body: unknown;
  envelope_id?: string;
  ack(response?: Record<string, unknown>): Promise<void>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The client's own lines at warn and error only, as text: its debug lines would hold payloads and socket URLs.
 * (The app-level token is only ever in the Authorization header of apps.connections.open.)
 */
function clientLogger(log: SocketModeOptions['log'], community: string) {
  const text = (parts: unknown[]) => parts.map(String).join(' ');
  return {
    debug() {},
    info() {},
    warn: (...parts: unknown[]) => log.warn({ community }, `Slack Socket Mode: ${text(parts)}`),
    error: (...parts: unknown[]) => log.error({ community }, `Slack Socket Mode: ${text(parts)}`),
    setLevel() {},
    getLevel: () => 'warn' as never,
    setName() {},
  };
}

type ClientOptions = ConstructorParameters<typeof SocketModeClient>[0];

/**
 * The official client, but a message it cannot read (an `events_api` envelope without `payload.event`, a JSON
 * `null`) is logged and dropped: the client's own reading would reject outside any handler and end the process.
 */
async function guardedClientClass() {
  const { SocketModeClient } = await import('@slack/socket-mode');
  return class GuardedSocketModeClient extends SocketModeClient {
    constructor(
      options: ClientOptions,
      private readonly onUnreadable: (error: unknown) => void,
    ) {
      super(options);
    }

    protected override async onWebSocketMessage(data: string | ArrayBuffer, isBinary: boolean): Promise<void> {
      try {
        await super.onWebSocketMessage(data, isBinary);
      } catch (error) {
        this.onUnreadable(error);
      }
    }
  };
}

/** Opens a socket per community with an app-level token; `stop` closes them. `ready` settles once each said hello. */
export async function startSocketMode(options: SocketModeOptions) {
  const { store, intake, log } = options;
  const clients: SocketModeClient[] = [];
  const opened: Promise<unknown>[] = [];
  let GuardedSocketModeClient: Awaited<ReturnType<typeof guardedClientClass>> | null = null;
  for (const connection of await socketModeConnections(store.db)) {
    if (connection.app_token === null) continue;
    GuardedSocketModeClient ??= await guardedClientClass();
    const communityId = connection.id;
    const client = new GuardedSocketModeClient(
      {
        appToken: connection.app_token,
        logger: clientLogger(log, connection.slug),
        clientOptions: { slackApiUrl: slackApiBase(options.apiUrl) },
      },
      (error) =>
        log.warn(
          { community: connection.slug, err: error },
          'Slack Socket Mode: a message that is not an envelope was dropped',
        ),
    );
    client.on('slack_event', async (message: SocketEvent) => {
      const { type, body, envelope_id: envelopeId } = message;
      // Interactivity and slash commands are not Hearth's: acknowledged so that Slack does not send them again.
      if (type !== 'events_api' || !isObject(body) || body.type !== 'event_callback') {
        await message.ack().catch(() => undefined);
        return;
      }
      try {
        await intake(communityId, body, JSON.stringify(body));
      } catch (error) {
        if (!(error instanceof AppError)) {
          // Not acknowledged: Slack sends the envelope again (on this socket or another).
          log.error(
            { community: connection.slug, envelope_id: envelopeId, err: error },
            'Slack envelope not stored; not acknowledged',
          );
          return;
        }
        log.warn({ community: connection.slug, envelope_id: envelopeId }, `Slack envelope refused: ${error.message}`);
      }
      try {
        await message.ack();
      } catch (error) {
        // The socket went between the write and the acknowledgement: Slack sends it again, and the inbox holds it.
        log.warn(
          { community: connection.slug, envelope_id: envelopeId, err: error },
          'Slack envelope stored; its acknowledgement could not be sent',
        );
      }
    });
    clients.push(client);
    opened.push(
      client.start().then(
        () => log.info({ community: connection.slug }, 'Slack Socket Mode connected'),
        (error: unknown) =>
          log.error({ community: connection.slug, err: error }, 'Slack Socket Mode could not connect'),
      ),
    );
  }
  return {
    /** How many sockets were opened. */
    count: clients.length,
    ready: Promise.all(opened).then(() => undefined),
    async stop(): Promise<void> {
      await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
    },
  };
}
export type SocketMode = Awaited<ReturnType<typeof startSocketMode>>;
