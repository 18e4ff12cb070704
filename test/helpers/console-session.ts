// Signs an operator in to the console over `inject`, as a browser would: the sign-in page, its CSRF token and
// cookie, the POST that uses the link; then requests carry the cookies and each form's token.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export interface ConsoleClient {
  cookies: Map<string, string>;
  get(path: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** Posts a urlencoded form; `_csrf` is taken from `from` (a page's HTML) unless given in `fields`. */
  post(path: string, fields: Record<string, string | string[]>, from?: string): Promise<LightMyRequestResponse>;
}

/** The first form token of a page. */
export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no CSRF token on the page');
  return match[1];
}

export function consoleClient(app: FastifyInstance, ip = '127.0.0.1'): ConsoleClient {
  const cookies = new Map<string, string>();
  const remember = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies) {
      if (
        cookie.value === '' ||
        (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
        (cookie.expires && cookie.expires.getTime() < Date.now())
      )
        cookies.delete(cookie.name);
      else cookies.set(cookie.name, cookie.value);
    }
    return response;
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let lastPage = '';
  const client: ConsoleClient = {
    cookies,
    async get(path, headers = {}) {
      const response = remember(
        await app.inject({
          method: 'GET',
          url: path,
          remoteAddress: ip,
          headers: { cookie: cookieHeader(), ...headers },
        }),
      );
      lastPage = response.body;
      return response;
    },
    async post(path, fields, from) {
      const form = new URLSearchParams();
      if (!('_csrf' in fields)) form.set('_csrf', csrfOf(from ?? lastPage));
      for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(name, v);
      const response = remember(
        await app.inject({
          method: 'POST',
          url: path,
          remoteAddress: ip,
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: form.toString(),
        }),
      );
      lastPage = response.body;
      return response;
    },
  };
  return client;
}

/** Signs in with `link` (a sign-in link's secret): the answer to the POST. */
export async function signIn(client: ConsoleClient, link: string): Promise<LightMyRequestResponse> {
  const page = await client.get(`/console/sign-in?link=${encodeURIComponent(link)}`);
  return client.post('/console/sign-in', { link }, page.body);
}
