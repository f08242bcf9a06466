import { expect, it } from 'vitest';
import { getContainerRuntimeClient } from 'testcontainers';
import { startSystem } from '@scheduling-shop/testkit';

/** The part of testcontainers' engine client (dockerode) that lists stopped containers too. */
interface ContainerLister {
  dockerode: {
    listContainers(options: { all: boolean }): Promise<{ Id: string; NetworkSettings?: { Networks?: Record<string, unknown> } }[]>;
  };
}

/** Every container of the engine, stopped ones too, by id → the networks it is on. */
async function containersByNetwork(): Promise<Map<string, string[]>> {
  const { container } = await getContainerRuntimeClient();
  const all = await (container as unknown as ContainerLister).dockerode.listContainers({ all: true });
  return new Map(all.map((info) => [info.Id, Object.keys(info.NetworkSettings?.Networks ?? {})]));
}

it('when a service image is missing, then startSystem fails naming it and how to build it, and leaves no container behind', async () => {
  const before = await containersByNetwork();

  const started = startSystem({ images: { events: 'localhost/scheduling-shop/does-not-exist:none' } });

  await expect(started).rejects.toThrow(/image localhost\/scheduling-shop\/does-not-exist:none .*npm run images/s);
  // The system's containers are all on a network of their own, made by this start: none of them may be left.
  const knownNetworks = new Set([...before.values()].flat());
  const left = [...(await containersByNetwork())].filter(
    ([id, networks]) => !before.has(id) && networks.some((name) => !knownNetworks.has(name)),
  );
  expect(left).toEqual([]);
}, 180_000);
