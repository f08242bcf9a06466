import { ScriptedServer, type ReceivedRequest, type Reply } from './scripted-server.js';

const GOOGLE_CLIENT = { id: 'sdk-test-client', secret: 'sdk-test-secret' };

/**
 * Just enough of Google for calendar connections: the OAuth token endpoint (any code or refresh token is good) and
 * Calendar v3 freeBusy answering every calendar as free.
 */
export async function startFakeGoogle(): Promise<{ server: ScriptedServer; env: Record<string, string> }> {
  const server = new ScriptedServer().respond(answer);
  await server.start();
  return {
    server,
    env: {
      GOOGLE_CLIENT_ID: GOOGLE_CLIENT.id,
      GOOGLE_CLIENT_SECRET: GOOGLE_CLIENT.secret,
      GOOGLE_AUTH_URL: `${server.url}/auth`,
      GOOGLE_TOKEN_URL: `${server.url}/token`,
      GOOGLE_API_URL: server.url,
    },
  };
}

function answer(request: ReceivedRequest): Reply {
  if (request.method === 'POST' && request.url === '/token') {
    return { status: 200, body: { access_token: 'fake-access', refresh_token: 'fake-refresh', expires_in: 3599, token_type: 'Bearer' } };
  }
  if (request.method === 'POST' && request.url.startsWith('/calendar/v3/freeBusy')) {
    const asked: unknown = JSON.parse(request.body.toString());
    const calendars = Object.fromEntries(calendarIds(asked).map((id) => [id, { busy: [] }]));
    return { status: 200, body: { kind: 'calendar#freeBusy', calendars } };
  }
  return { status: 404, body: { error: { code: 404, message: `no fake for ${request.method} ${request.url}` } } };
}

function calendarIds(body: unknown): string[] {
  if (typeof body !== 'object' || body === null || !('items' in body) || !Array.isArray(body.items)) return [];
  return body.items.flatMap((item: unknown) =>
    typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'string' ? [item.id] : [],
  );
}
