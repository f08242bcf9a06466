import { afterAll, beforeAll, describe } from 'vitest';
import { describeListPaging, eventually, type ListReply, type PagedListCaller } from '@app/service-testing';
import { Receiver } from './support/receiver.js';
import { client, data, startWebhooks, type Client, type Reply, type Running } from './support/harness.js';

let running: Running;
let receiver: Receiver;
beforeAll(async () => {
  [running, receiver] = await Promise.all([startWebhooks(), Receiver.start()]);
});
afterAll(async () => {
  await running.stop();
  await receiver.close();
});

const asListReply = (reply: Reply): ListReply => reply as unknown as ListReply;

function expectStatus(reply: Reply, status: number): Reply {
  if (reply.status !== status) throw new Error(`answered ${reply.status}, not ${status}: ${JSON.stringify(reply.body)}`);
  return reply;
}

describe('GET /api/v1/webhook-endpoints and their deliveries by cursor and updated_since', () => {
  function endpoints(): PagedListCaller {
    const api = client(running);
    return {
      list: async (query) => asListReply(await api.get(`/api/v1/webhook-endpoints?${query}`)),
      create: async () =>
        String(data(expectStatus(await api.post('/api/v1/webhook-endpoints', { url: 'https://hooks.example.com/in' }), 201)).id),
      update: async (id) => {
        expectStatus(await api.patch(`/api/v1/webhook-endpoints/${id}`, { description: 'Renamed' }), 200);
      },
    };
  }

  /** An endpoint's deliveries: tests sent to the receiver, each waited for until delivered, so that nothing moves them after. */
  async function deliveries(): Promise<PagedListCaller> {
    const api: Client = client(running);
    const endpointId = String(data(expectStatus(await api.post('/api/v1/webhook-endpoints', { url: receiver.url }), 201)).id);
    const path = `/api/v1/webhook-endpoints/${endpointId}/deliveries`;
    const delivered = (id: string) =>
      eventually(async () => (data(await api.get(`${path}/${id}`)).status === 'succeeded' ? true : undefined));
    return {
      list: async (query) => asListReply(await api.get(`${path}?${query}`)),
      create: async () => {
        const id = String(data(expectStatus(await api.post(`/api/v1/webhook-endpoints/${endpointId}/test`), 202)).id);
        await delivered(id);
        return id;
      },
      update: async (id) => {
        expectStatus(await api.post(`${path}/${id}/retry`), 202);
        await delivered(id);
      },
    };
  }

  describeListPaging([
    { name: 'GET /api/v1/webhook-endpoints', arrange: async () => endpoints(), otherFilter: 'updated_since=2000-01-01T00:00:00Z' },
    { name: 'GET /api/v1/webhook-endpoints/{id}/deliveries', arrange: deliveries, otherFilter: 'status=failed' },
  ]);
});
