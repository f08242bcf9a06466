// `npm run dlq -- list|show|replay|discard`: the dead letters of the services (events a consumer could not apply:
// malformed, or its handler failed for a reason other than the database or NATS being away; and, as consumer `outbox`,
// events a publishing service's relay set aside because the broker refused them), on the NATS of
// NATS_URL under NATS_PREFIX, as NATS_USER (the `dlq` user of `npm run nats:config`) with NATS_PASSWORD or
// NATS_PASSWORD_FILE; without a user, an unauthenticated connection (`npm start`'s NATS). See docs/operations.md,
// "Dead letters".
//   list [--service S] [--consumer DURABLE] [--json]    seq, service/consumer, subject, event id, type, error, deliveries, time
//   show <seq> [--service S]                            one, with its headers and payload (JSON)
//   replay <seq>|--all [--service S] [--consumer D]     publish again to its subject, for that consumer only; then remove it
//   discard <seq>|--all [--service S] [--consumer D]    remove it
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';

const ROOT = join(import.meta.dirname, '..');
const USAGE = 'usage: npm run dlq -- list [--service S] [--consumer D] [--json] | show <seq> | replay <seq>|--all | discard <seq>|--all';

/** The kit and contracts from their builds: builds the kit (and contracts) first when it has not been built yet. */
async function kit() {
  if (!existsSync(join(ROOT, 'packages/service-kit/dist/index.js')))
    execFileSync('npx', ['turbo', 'run', 'build', '--filter=@app/service-kit', '--output-logs=errors-only'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  return { ...(await import('@app/service-kit')), ...(await import('@app/contracts')) };
}

function password(env) {
  if (env.NATS_PASSWORD) return env.NATS_PASSWORD;
  return env.NATS_PASSWORD_FILE ? readFileSync(env.NATS_PASSWORD_FILE, 'utf8').replace(/\r?\n$/, '') : undefined;
}

const line = (d) =>
  [d.seq, `${d.service}/${d.consumer}`, d.subject, d.eventId || '-', d.type, d.deliveries, d.failedAt, `${d.reason}: ${d.error}`].join(
    '\t',
  );

async function main(argv, env) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { service: { type: 'string' }, consumer: { type: 'string' }, all: { type: 'boolean' }, json: { type: 'boolean' } },
  });
  const [command, seqText] = positionals;
  if (!['list', 'show', 'replay', 'discard'].includes(command ?? '')) return usage();
  const k = await kit();
  const services = k.SERVICE_NAMES.filter((name) => k.hasDeadLetters(k.topologyOf(name)));
  const service = values.service ?? (services.length === 1 ? services[0] : undefined);
  const user = env.NATS_USER;
  const nc = await connect({
    servers: env.NATS_URL ?? 'nats://127.0.0.1:4222',
    name: 'dlq',
    ...(user && { user, pass: password(env) }),
    inboxPrefix: `_INBOX_${k.DEAD_LETTER_ADMIN_USER}`,
  });
  try {
    const letters = new k.DeadLetters(jetstream(nc), await jetstreamManager(nc), env.NATS_PREFIX ?? '', services);
    const filter = { service: values.service, consumer: values.consumer };
    if (command === 'list') {
      const all = await letters.list(filter);
      if (values.json) console.log(JSON.stringify(all.map(({ headers: _h, payload: _p, data: _d, ...summary }) => summary)));
      else {
        console.log(['seq', 'service/consumer', 'subject', 'event id', 'type', 'deliveries', 'failed at', 'error'].join('\t'));
        for (const letter of all) console.log(line(letter));
      }
      return 0;
    }
    let chosen;
    if (values.all && command !== 'show') chosen = await letters.list(filter);
    else {
      const seq = Number(seqText);
      if (!Number.isInteger(seq) || seq < 1 || !service) return usage(service ? undefined : `--service is one of ${services.join(', ')}`);
      const letter = await letters.get(service, seq);
      if (!letter) {
        console.error(`no dead letter ${seq} in ${service}'s dead-letter stream`);
        return 1;
      }
      chosen = [letter];
    }
    if (chosen.length === 0) console.log('no dead letters');
    for (const letter of chosen) {
      if (command === 'show') {
        const { data: _d, payload, ...rest } = letter;
        let event = payload;
        try {
          event = JSON.parse(payload);
        } catch {
          // a malformed event: shown as it came
        }
        console.log(JSON.stringify({ ...rest, payload: event }, null, 2));
      } else if (command === 'replay') {
        await letters.replay(letter);
        console.log(`replayed ${letter.service} ${letter.seq} (${letter.type} ${letter.eventId || '-'}) to ${letter.consumer}`);
      } else {
        await letters.discard(letter);
        console.log(`discarded ${letter.service} ${letter.seq} (${letter.type} ${letter.eventId || '-'})`);
      }
    }
    return 0;
  } finally {
    await nc.close();
  }
}

function usage(problem) {
  if (problem) console.error(problem);
  console.error(USAGE);
  return 2;
}

process.exitCode = await main(process.argv.slice(2), process.env);
