// The address of a sign-in link, as `hearth operator` and `hearth start` print it.
import type { Config } from '../config.js';

/** CONSOLE_URL when set, else the address Hearth listens on (`0.0.0.0` and `::` shown as localhost). */
export function consoleBase(config: Pick<Config, 'consoleUrl' | 'host' | 'port'>): string {
  if (config.consoleUrl) return `${config.consoleUrl.replace(/\/+$/, '')}/console`;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}/console`;
}

export const signInUrl = (config: Pick<Config, 'consoleUrl' | 'host' | 'port'>, secret: string): string =>
  `${consoleBase(config)}/sign-in?link=${encodeURIComponent(secret)}`;
