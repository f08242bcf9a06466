import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startStack } from '../src/index.ts';
import { portHolder, portIsFree } from '../src/port-check.ts';

const listening: net.Server[] = [];

/** Something else listening on a port the OS picked (as MariaDB on 3306 did to the soak's webhooks). */
async function occupyPort(): Promise<number> {
  const server = net.createServer();
  listening.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

afterEach(async () => {
  await Promise.all(listening.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("a stack's ports", () => {
  it('when a port is listened on, then it is not free and its holder is this process, by name and pid', async () => {
    const port = await occupyPort();
    expect(await portIsFree('127.0.0.1', port)).toBe(false);
    const command = readFileSync('/proc/self/comm', 'utf8').trim();
    expect(portHolder(port)).toBe(`${command} (pid ${process.pid})`);
  });

  it('when a service port of the block is taken, then the start is refused before anything runs, naming the port, the service, its holder and the variable with a free base', async () => {
    const taken = await occupyPort();
    // The webhooks service listens at the base + 6.
    const base = taken - 6;
    const command = readFileSync('/proc/self/comm', 'utf8').trim();
    const start = startStack({ port: base, portVariable: 'SOAK_PORT', env: { HOST: '127.0.0.1' }, output: 'none' });
    await expect(start).rejects.toThrow(`port ${taken} (webhooks) is taken by ${command} (pid ${process.pid})`);
    await expect(start).rejects.toThrow(
      new RegExp(`The stack's ports follow SOAK_PORT \\(${base}\\): set SOAK_PORT=\\d+ \\(every port it needs is free there\\)`),
    );
  });
});
