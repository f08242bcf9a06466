import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

const savedDemo = z.object({ publishableKey: z.string(), scheduleId: z.string() });
const created = z.object({ data: z.object({ id: z.string() }) });
const createdKey = z.object({ data: z.object({ key: z.string() }) });
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * The booking widget's demo page for the development organization (`/widget/demo`, development and test only): a
 * public schedule and a publishable key of that organization, reused from `stateFile` while the key still reads the
 * schedule, else created with the organization's secret key and saved there. The key allows any origin (`*`): the demo
 * page is on the gateway's own address, which a key's origins cannot name (`http://127.0.0.1:…`). Answers the page's
 * address, or throws with the gateway's answer.
 */
export async function widgetDemoUrl(gatewayUrl: string, { apiKey, stateFile }: { apiKey: string; stateFile: string }): Promise<string> {
  const demo = (await reusable(gatewayUrl, stateFile)) ?? (await createDemo(gatewayUrl, apiKey));
  writeFileSync(stateFile, `${JSON.stringify(demo)}\n`, { mode: 0o600 });
  return `${gatewayUrl}/widget/demo?key=${encodeURIComponent(demo.publishableKey)}&schedule=${demo.scheduleId}`;
}

async function reusable(gatewayUrl: string, stateFile: string): Promise<z.infer<typeof savedDemo> | undefined> {
  if (!existsSync(stateFile)) return undefined;
  const saved = savedDemo.safeParse(JSON.parse(readFileSync(stateFile, 'utf8')));
  if (!saved.success) return undefined;
  const check = await fetch(`${gatewayUrl}/api/v1/schedules/${saved.data.scheduleId}`, {
    headers: { authorization: `Bearer ${saved.data.publishableKey}` },
  });
  return check.ok ? saved.data : undefined;
}

async function createDemo(gatewayUrl: string, apiKey: string): Promise<z.infer<typeof savedDemo>> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const schedule = created.parse(
    await post('/api/v1/schedules', {
      name: 'Widget demo',
      timezone: 'UTC',
      slot_duration: 30,
      public_booking: true,
      availability: WEEK.map((day) => ({ day, start: '08:00', end: '18:00' })),
    }),
  );
  const key = createdKey.parse(await post('/api/v1/api-keys', { name: 'Widget demo', type: 'publishable', allowed_origins: ['*'] }));
  return { publishableKey: key.data.key, scheduleId: schedule.data.id };
}
