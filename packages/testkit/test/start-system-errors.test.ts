import { expect, it } from 'vitest';
import { startSystem } from '@app/testkit';

it('when a service image is missing, then startSystem fails naming it and how to build it', async () => {
  const started = startSystem({ images: { events: 'localhost/scheduling-shop/does-not-exist:none' } });

  await expect(started).rejects.toThrow(/image localhost\/scheduling-shop\/does-not-exist:none .*npm run images/s);
}, 180_000);
