// Starts bare-service.mjs behind bare-proxy.mjs, and behind framework-proxy.mjs (see those files): the ceiling the
// bench compares the real stack with, and the floor of the gateway's framework. Same database and organization as the
// scenarios, so they serve the same data.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { serviceNodeFlags } from '@app/dev-stack';

async function startProcess(script, env) {
  // The real services' V8 flags: a ceiling with other garbage-collection threads would not be the same runtime.
  const child = spawn(process.execPath, [...serviceNodeFlags(), join(import.meta.dirname, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [first] = await Promise.race([once(lines, 'line'), once(child, 'exit').then(([code]) => [`exited with ${code}`])]);
  if (first !== 'ready') throw new Error(`${script}: ${first}`);
  return child;
}

/**
 * The bare pair on `port` (proxy, `url`) and `port + 1` (service, `serviceUrl`), and the framework's proxy to the same
 * service on `port + 2` (`frameworkUrl`); `stop()` ends the three.
 */
export async function startBareStack({ databaseUrl, natsUrl, organizationId, port }) {
  const service = await startProcess('bare-service.mjs', {
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    ORGANIZATION_ID: organizationId,
    PORT: String(port + 1),
  });
  const children = [service];
  const stop = async () => {
    for (const child of [...children].reverse()) {
      if (child.exitCode !== null) continue;
      child.kill();
      await once(child, 'exit');
    }
  };
  const upstream = { UPSTREAM_URL: `http://127.0.0.1:${port + 1}` };
  try {
    children.push(await startProcess('bare-proxy.mjs', { ...upstream, PORT: String(port) }));
    children.push(await startProcess('framework-proxy.mjs', { ...upstream, PORT: String(port + 2) }));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    serviceUrl: `http://127.0.0.1:${port + 1}`,
    frameworkUrl: `http://127.0.0.1:${port + 2}`,
    stop,
  };
}
