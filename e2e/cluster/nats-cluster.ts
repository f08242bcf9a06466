import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** One node of the cluster: its name (server_name), ports, store and process. */
export interface NatsNode {
  name: string;
  clientPort: number;
  clusterPort: number;
  monitorPort: number;
  storeDir: string;
  process?: ChildProcess;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A JetStream cluster of `nats-server` processes on loopback ports (NATS_SERVER_BIN, else the one on PATH), each with
 * a store of its own, routed to each other: what a three-node cluster of separate hosts is, minus the network. Nodes
 * can be killed (SIGKILL), paused (SIGSTOP) and started again, with their store kept or wiped.
 */
export class NatsCluster {
  private constructor(
    private readonly dir: string,
    readonly nodes: NatsNode[],
  ) {}

  static async start(size = 3): Promise<NatsCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'nats-cluster-'));
    const nodes: NatsNode[] = [];
    for (let index = 0; index < size; index += 1) {
      nodes.push({
        name: `n${index + 1}`,
        clientPort: await freePort(),
        clusterPort: await freePort(),
        monitorPort: await freePort(),
        storeDir: join(dir, `n${index + 1}`),
      });
    }
    const cluster = new NatsCluster(dir, nodes);
    for (const node of nodes) cluster.spawnNode(node);
    await Promise.all(nodes.map((node) => cluster.waitHealthy(node)));
    await cluster.waitForMetaLeader();
    return cluster;
  }

  /** Every node's client URL, comma-separated: a cluster's NATS_URL. */
  get url(): string {
    return this.nodes.map((node) => `nats://127.0.0.1:${node.clientPort}`).join(',');
  }

  node(name: string): NatsNode {
    const node = this.nodes.find((candidate) => candidate.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /** The node leading a stream's replicas (its writes go through it). */
  async leaderOf(stream: string): Promise<string> {
    return this.withManager(async (jsm) => {
      const leader = (await jsm.streams.info(stream)).cluster?.leader;
      if (!leader) throw new Error(`stream ${stream} has no leader`);
      return leader;
    });
  }

  /** How many replicas of a stream are current (the leader and its caught-up followers). */
  async currentReplicas(stream: string): Promise<number> {
    return this.withManager(async (jsm) => {
      const cluster = (await jsm.streams.info(stream)).cluster;
      return (cluster?.leader ? 1 : 0) + (cluster?.replicas ?? []).filter((replica) => replica.current && !replica.offline).length;
    });
  }

  /** SIGKILL, as a crashed host: no lame duck, nothing flushed. */
  async kill(name: string): Promise<void> {
    const node = this.node(name);
    const child = node.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  pause(name: string): void {
    this.node(name).process?.kill('SIGSTOP');
  }

  resume(name: string): void {
    this.node(name).process?.kill('SIGCONT');
  }

  /** Starts a stopped node again on its ports; `wipe` first deletes its store, as a replaced disk would. */
  async restart(name: string, { wipe = false } = {}): Promise<void> {
    const node = this.node(name);
    await this.kill(name);
    if (wipe) rmSync(node.storeDir, { recursive: true, force: true });
    this.spawnNode(node);
    await this.waitHealthy(node);
  }

  async stop(): Promise<void> {
    for (const node of this.nodes) {
      this.resume(node.name);
      await this.kill(node.name);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private spawnNode(node: NatsNode): void {
    mkdirSync(node.storeDir, { recursive: true });
    const routes = this.nodes.map((peer) => `nats-route://127.0.0.1:${peer.clusterPort}`).join(', ');
    const config = join(this.dir, `${node.name}.conf`);
    writeFileSync(
      config,
      [
        `server_name: ${node.name}`,
        `listen: 127.0.0.1:${node.clientPort}`,
        `http: 127.0.0.1:${node.monitorPort}`,
        `jetstream { store_dir: "${node.storeDir}", max_file_store: 1GB, max_memory_store: 64MB }`,
        `cluster { name: e2e, listen: 127.0.0.1:${node.clusterPort}, routes: [${routes}] }`,
      ].join('\n'),
    );
    const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
    const child = spawn(binary, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.once('error', (error) => {
      throw new Error(`${binary} does not run (${error.message}): apt-get install nats-server`);
    });
    child.stderr?.resume();
    node.process = child;
  }

  private async waitHealthy(node: NatsNode, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const response = await fetch(`http://127.0.0.1:${node.monitorPort}/healthz?js-enabled-only=true`).catch(() => null);
      if (response?.ok) return;
      await sleep(100);
    }
    throw new Error(`NATS node ${node.name} did not become healthy in ${timeoutMs} ms`);
  }

  /** JetStream answers only once the nodes elected a meta leader. */
  private async waitForMetaLeader(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ready = await this.withManager(async (jsm) => Boolean(await jsm.getAccountInfo())).catch(() => false);
      if (ready) return;
      if (Date.now() > deadline) throw new Error('the NATS cluster elected no JetStream meta leader');
      await sleep(250);
    }
  }

  private async withManager<T>(use: (jsm: Awaited<ReturnType<typeof jetstreamManager>>) => Promise<T>): Promise<T> {
    const nc = await connect({ servers: this.url.split(','), timeout: 2000 });
    try {
      return await use(await jetstreamManager(nc, { timeout: 5000 }));
    } finally {
      await nc.close();
    }
  }
}
