// A stand-in for Google Calendar's freeBusy endpoint, run as a container of the compose smoke test
// (fake-calendar.compose.yml): every calendar is busy during FAKE_BUSY_START–FAKE_BUSY_END. Plain Node, no
// dependencies, so it runs on the base Node image as it is.
import { createServer } from 'node:http';

const busy = [{ start: process.env.FAKE_BUSY_START, end: process.env.FAKE_BUSY_END }];

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const reply = (status, json) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(json));
    };
    if (request.method === 'POST' && request.url?.startsWith('/calendar/v3/freeBusy')) {
      const query = JSON.parse(body);
      const calendars = Object.fromEntries(query.items.map(({ id }) => [id, { busy }]));
      reply(200, { kind: 'calendar#freeBusy', timeMin: query.timeMin, timeMax: query.timeMax, calendars });
    } else if (request.method === 'POST' && request.url === '/google/token') {
      reply(200, { access_token: `at-${Date.now()}`, expires_in: 3600, token_type: 'Bearer' });
    } else {
      reply(404, { error: { code: 404, message: `no route ${request.method} ${request.url}` } });
    }
  });
});
server.listen(4010, '0.0.0.0', () => console.log('fake calendar listening on 4010'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
