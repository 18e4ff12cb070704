// One console session for the console workload: an operator of the corpus's community, signed in once through a
// one-time link as a browser does (the sign-in page's CSRF token and cookie, then the POST), its cookie kept.
import { runHearth } from './processes.js';

const OPERATOR = 'bench@example.com';

/** `name=value` of the Set-Cookie named `name` among a response's cookies; throws when it is missing. */
function cookie(response: Response, name: string): string {
  const found = response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
  if (!found) throw new Error(`${response.url} answered ${response.status} without the ${name} cookie`);
  return found.split(';')[0] ?? '';
}

/** A one-time link's secret for the bench operator: a new link when the corpus already has them, else created. */
async function linkSecret(databaseUrl: string, community: string): Promise<string> {
  const env = { DATABASE_URL: databaseUrl };
  const printed = await runHearth(['operator', 'link', '--email', OPERATOR], env).catch(() =>
    runHearth(['operator', 'create', '--email', OPERATOR, '--community', community], env),
  );
  const secret = new URL(printed.trim()).searchParams.get('link');
  if (!secret) throw new Error(`hearth operator printed no sign-in link: ${printed}`);
  return secret;
}

/**
 * Signs the bench operator in on `baseUrl` and answers the `Cookie` header its requests carry: the session and,
 * as a browser sends it back, the CSRF secret, so that pages reuse it rather than make a new one each time.
 */
export async function consoleSessionCookie(baseUrl: string, databaseUrl: string, community: string): Promise<string> {
  const secret = await linkSecret(databaseUrl, community);
  const form = await fetch(`${baseUrl}/console/sign-in?link=${encodeURIComponent(secret)}`);
  const html = await form.text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (form.status !== 200 || !csrf) throw new Error(`The sign-in page answered ${form.status}: ${html.slice(0, 300)}`);
  const csrfCookie = cookie(form, 'hearth_csrf');
  const signedIn = await fetch(`${baseUrl}/console/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
    body: new URLSearchParams({ link: secret, _csrf: csrf }).toString(),
  });
  await signedIn.arrayBuffer();
  if (signedIn.status !== 303) throw new Error(`Signing in to the console answered ${signedIn.status}`);
  return `${cookie(signedIn, 'hearth_session')}; ${csrfCookie}`;
}
