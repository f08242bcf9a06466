// `npm run bench:peers`: the same product searches against this system and against a peer that shops pick instead
// (Medusa v2, bench/peers/medusa), both seeded with the 20,000 products of products.mjs, one after the other in one
// run, so the ratios are of one machine at one time. Installs and seeds the peer only when that is not done yet;
// starts, measures and stops both; prints a table and the ratios and writes bench/results/peers.json. Not part of CI
// (docs/benchmarks.md, "Peers"). Numbers, never pass/fail.
import { ensureModernNode } from '../../scripts/ensure-node.mjs';
ensureModernNode();

const { mkdirSync, writeFileSync } = await import('node:fs');
const net = await import('node:net');
const { join } = await import('node:path');
const { readPeersEnv } = await import('../../scripts/script-env.mjs');
const { describeMachine, watchMachine } = await import('../lib/machine.mjs');
const { installMedusa, medusaVersion, seedMedusa, startMedusa } = await import('./medusa.mjs');
const { startOurs } = await import('./ours.mjs');
const { measure, ourCpu, peerCpu } = await import('./load.mjs');
const { PAGE_SIZE, PRODUCT_COUNT, SEARCHES } = await import('./products.mjs');

const env = readPeersEnv();
const load = { connections: env.PEERS_CONNECTIONS, duration: env.PEERS_DURATION, warmup: env.PEERS_WARMUP };
// Medusa's store product fields that are the product's own (no variants, options, images, tags, collection, type):
// the trimmed runs ask for these, so what is left is the query and the framework, not the size of the answer.
const MEDUSA_OWN_FIELDS = 'id,title,subtitle,description,handle,thumbnail,created_at,updated_at';

/** Both systems' requests of one kind: a name search (the words cycled) or the first page, newest first. */
function queries(regionId) {
  const ours = (search) => `/api/v1/products?${search ? `search=${encodeURIComponent(search)}&` : ''}limit=${PAGE_SIZE}`;
  const medusa = (search, fields) =>
    `/store/products?${search ? `q=${encodeURIComponent(search)}&` : ''}limit=${PAGE_SIZE}&region_id=${regionId}&order=-created_at${
      fields ? `&fields=${fields}` : ''
    }`;
  const kinds = [
    { kind: 'name search', words: SEARCHES },
    { kind: 'first page', words: [null] },
  ];
  return kinds.map(({ kind, words }) => ({
    kind,
    ours: words.map((word) => ({ method: 'GET', path: ours(word) })),
    medusa: words.map((word) => ({ method: 'GET', path: medusa(word) })),
    medusaTrimmed: words.map((word) => ({ method: 'GET', path: medusa(word, MEDUSA_OWN_FIELDS) })),
  }));
}

/** The names each system lists for a request, and its count of matches: the runs must compare like with like. */
async function listed(url, path, headers) {
  const response = await fetch(`${url}${path}`, { headers });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  const body = await response.json();
  return body.products
    ? { total: body.count, names: body.products.map((product) => product.title) }
    : { total: body.meta.total, names: body.data.map((product) => product.name) };
}

async function sameResults(ours, medusa, kinds) {
  const differences = [];
  for (const kind of kinds) {
    for (const [index, request] of kind.ours.entries()) {
      const mine = await listed(ours.url, request.path, ours.headers);
      for (const peer of [kind.medusa[index], kind.medusaTrimmed[index]]) {
        const theirs = await listed(medusa.url, peer.path, medusa.headers);
        if (mine.total !== theirs.total || mine.names.join('|') !== theirs.names.join('|'))
          differences.push(
            `${request.path}: ${mine.total} [${mine.names.slice(0, 3)}…] vs ${peer.path}: ${theirs.total} [${theirs.names.slice(0, 3)}…]`,
          );
      }
    }
  }
  return differences;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** The server side's CPU per request: every group but the load generator's. */
const serverCpu = (cpu) =>
  cpu
    ? +Object.entries(cpu)
        .reduce((sum, [group, ms]) => (group === 'client' ? sum : sum + ms), 0)
        .toFixed(2)
    : null;

async function main() {
  const machine = watchMachine();
  const installed = installMedusa();
  const version = medusaVersion();
  const seed = await seedMedusa(env.PEERS_MEDUSA_DATABASE_URL, { reseed: env.PEERS_RESEED === '1' });
  if (!seed.seeded)
    console.log(`Medusa ${version}: reusing the seed of database ${new URL(env.PEERS_MEDUSA_DATABASE_URL).pathname.slice(1)}`);
  const medusaHeaders = { 'x-publishable-api-key': seed.publishableKey };
  const kinds = queries(seed.regionId);

  const started = [];
  const results = [];
  let differences;
  // Medusa runs in a process group of its own (to stop what it forks), so a Ctrl-C in the terminal misses it.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, async () => {
      for (const target of started.reverse()) await target.stop().catch(() => undefined);
      process.exit(130);
    });
  try {
    process.stdout.write('starting this system (build, migrations, seed) ... ');
    const ours = await startOurs({ databaseUrl: env.PEERS_DATABASE_URL, port: env.PEERS_PORT });
    started.push(ours);
    console.log(ours.url);
    const medusaPort = env.PEERS_MEDUSA_PORT || (await freePort());
    process.stdout.write(`starting Medusa ${version} (medusa start) ... `);
    const medusa = { ...(await startMedusa(env.PEERS_MEDUSA_DATABASE_URL, medusaPort, seed.publishableKey)), headers: medusaHeaders };
    started.push(medusa);
    console.log(medusa.url);

    differences = await sameResults(ours, medusa, kinds);
    if (differences.length) console.warn(`the two systems list different products:\n  ${differences.join('\n  ')}`);
    else console.log('both list the same products, in the same order, with the same totals, for every request');

    const oursCpu = ourCpu(ours.database);
    const medusaCpu = peerCpu(medusa.pid, 'medusa', new URL(env.PEERS_MEDUSA_DATABASE_URL).pathname.slice(1));
    // Interleaved (this system, then Medusa, then Medusa trimmed, for each kind): a drift of the shared machine's load
    // over the run falls on both rather than on whichever ran last.
    for (const kind of kinds) {
      for (const [system, url, headers, requests, cpu] of [
        ['this system', ours.url, ours.headers, kind.ours, oursCpu],
        ['Medusa', medusa.url, medusaHeaders, kind.medusa, medusaCpu],
        ['Medusa, fields= trimmed', medusa.url, medusaHeaders, kind.medusaTrimmed, medusaCpu],
      ]) {
        const result = await measure({ name: `${system}: ${kind.kind}`, url, headers, requests, cpu, ...load });
        results.push({ kind: kind.kind, system, paths: requests.map((request) => request.path), ...result });
      }
    }
  } finally {
    for (const target of started.reverse()) await target.stop();
  }
  report({ results, differences, seed, version, installed, machine: machine.report() });
}

function report({ results, differences, seed, version, installed, machine }) {
  for (const row of results) row.server_cpu_ms_per_request = serverCpu(row.cpu_ms_per_request);
  const ratios = [];
  for (const kind of new Set(results.map((row) => row.kind))) {
    const ours = results.find((row) => row.kind === kind && row.system === 'this system');
    for (const peer of results.filter((row) => row.kind === kind && row.system !== 'this system')) {
      ratios.push({
        kind,
        peer: peer.system,
        // None when a run served nothing (a peer slower than the run is long): no ratio rather than a false one.
        rps_ratio: peer.rps && ours.rps ? +(ours.rps / peer.rps).toFixed(1) : null,
        cpu_ratio:
          peer.server_cpu_ms_per_request && ours.server_cpu_ms_per_request
            ? +(peer.server_cpu_ms_per_request / ours.server_cpu_ms_per_request).toFixed(1)
            : null,
      });
    }
  }
  const columns = [
    'scenario',
    'rps',
    'rps_min',
    'rps_max',
    'p50_ms',
    'p99_ms',
    'non2xx',
    'errors',
    'bytes_per_response',
    'server_cpu_ms_per_request',
  ];
  table(
    `\n${load.connections} connections, ${load.duration} s per run (after ${load.warmup} s of warm-up), ${PRODUCT_COUNT} products each\n`,
    columns,
    results,
  );
  console.log('\nCPU milliseconds per request, by process group (client = autocannon):');
  for (const row of results)
    console.log(
      `  ${row.scenario}: ${Object.entries(row.cpu_ms_per_request ?? {})
        .map(([group, ms]) => `${group} ${ms}`)
        .join(', ')}`,
    );
  table(
    '\nThis system against the peer (rps_ratio: how many times its rate; cpu_ratio: how many times its CPU per request the peer spends):\n',
    ['kind', 'peer', 'rps_ratio', 'cpu_ratio'],
    ratios,
  );
  for (const sentence of describeMachine(machine)) console.log(`\nMachine: ${sentence}`);
  const dir = join(import.meta.dirname, '..', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'peers.json');
  const peer = {
    name: 'Medusa',
    version,
    installed_now: installed,
    seeded_now: seed.seeded,
    migrate_s: seed.migrate_s,
    seed_s: seed.seed_s,
  };
  writeFileSync(
    file,
    `${JSON.stringify({ at: new Date().toISOString(), ...load, products: PRODUCT_COUNT, peer, same_results: differences.length === 0, differences, machine, results, ratios }, null, 2)}\n`,
  );
  console.log(`\nWritten to ${file}`);
}

function table(title, columns, rows) {
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => String(row[column] ?? '').length)));
  const line = (cells) => cells.map((cell, i) => String(cell ?? '').padEnd(widths[i])).join('  ');
  console.log(title);
  console.log(line(columns));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(columns.map((column) => row[column])));
}

await main().catch((error) => {
  console.error(error);
  process.exit(1);
});
