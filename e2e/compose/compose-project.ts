import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** `docker compose` (v2) where the Docker CLI has it, else the standalone `docker-compose` (Debian's, with podman). */
function composeCommand(): string[] {
  if (process.env.COMPOSE) return process.env.COMPOSE.split(' ');
  const v2 = spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' });
  if (v2.status === 0) return ['docker', 'compose'];
  const v1 = spawnSync('docker-compose', ['version'], { stdio: 'ignore' });
  if (v1.status === 0) return ['docker-compose'];
  throw new Error(
    'Neither `docker compose` nor `docker-compose` runs here. Install Docker with its compose plugin, or, without a Docker ' +
      'engine, `source scripts/container-engine.sh` (installs podman and docker-compose from Debian and starts the API socket).',
  );
}

/**
 * One compose project of docker-compose.yml (plus extra files) under its own project name, so it never meets
 * another run's containers, networks or volumes.
 */
export class ComposeProject {
  private readonly command = composeCommand();
  private healthchecks: ChildProcess | undefined;

  constructor(
    readonly name: string,
    private readonly files: string[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Runs a compose subcommand; its output is returned, and printed when it fails. */
  run(args: string[], timeoutMs = 20 * 60_000): string {
    const [binary, ...prefix] = this.command as [string, ...string[]];
    const files = ['docker-compose.yml', ...this.files].flatMap((file) => ['-f', file]);
    const result = spawnSync(binary, [...prefix, '-p', this.name, ...files, ...args], {
      cwd: ROOT,
      env: this.env,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
    if (result.status !== 0) {
      throw new Error(`compose ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${output.slice(-6000)}`);
    }
    return output;
  }

  /**
   * Podman records health only when something runs the checks, and compose's `service_healthy` waits for that
   * record: under podman a loop runs them for this project (scripts/compose-healthchecks.sh).
   */
  startHealthchecks(): void {
    if (process.env.CONTAINER_ENGINE !== 'podman') return;
    this.healthchecks = spawn('bash', [join(ROOT, 'scripts', 'compose-healthchecks.sh'), this.name], {
      env: this.env,
      stdio: 'ignore',
      detached: true,
    });
  }

  stopHealthchecks(): void {
    if (this.healthchecks?.pid) process.kill(-this.healthchecks.pid, 'SIGTERM');
    this.healthchecks = undefined;
  }

  /**
   * Whether each named service answers its own /readyz inside its container (the check its healthcheck runs), so a
   * test starts only once every service holds its Postgres and NATS connections, not merely the gateway.
   */
  ready(services: readonly string[]): boolean {
    const probe = "fetch('http://127.0.0.1:'+process.env.PORT+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))";
    return services.every((service) => {
      try {
        this.run(['exec', '-T', service, 'node', '-e', probe], 30_000);
        return true;
      } catch {
        return false;
      }
    });
  }

  /**
   * What went wrong, for a failed start: each container's state and health (`ps -a`: compose names an unhealthy
   * dependency only by its container id), then the last lines of every log.
   */
  diagnostics(): string {
    let states: string;
    try {
      states = this.run(['ps', '-a'], 60_000);
    } catch (error) {
      states = (error as Error).message;
    }
    return `${states}\n${this.logs()}`;
  }

  logs(service?: string): string {
    try {
      return this.run(['logs', '--no-color', '--tail', '60', ...(service ? [service] : [])], 60_000);
    } catch (error) {
      return (error as Error).message;
    }
  }
}
