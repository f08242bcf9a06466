import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CATEGORY_LEVELS } from '@app/contracts';
import { allCategories, createCategory, createChain, treeProblems } from './support/categories.js';
import { Client, startCatalog } from './support/harness.js';

/**
 * Moves that are each fine alone but together would make a cycle (A under B while B goes under A), or a tree deeper
 * than 5 levels, sent at the same time. The organization's tree lock runs them one after the other and the second
 * judges the tree the first left: exactly one wins, or both are refused, never a cycle or a sixth level.
 */
let catalog: Awaited<ReturnType<typeof startCatalog>>;
beforeAll(async () => {
  catalog = await startCatalog();
});
afterAll(() => catalog.stop());

const ROUNDS = 25;

describe('PATCH /api/v1/categories/{id} racing', () => {
  it('when two categories are moved under each other at once, round after round, then at most one move wins and no cycle forms', async () => {
    const shop = new Client(catalog.running);
    let oneWon = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const a = await createCategory(shop);
      const b = await createCategory(shop);

      const [first, second] = await Promise.all([
        shop.patch(`/api/v1/categories/${a.id}`, { parent_id: b.id }),
        shop.patch(`/api/v1/categories/${b.id}`, { parent_id: a.id }),
      ]);

      const statuses = [first.statusCode, second.statusCode].sort();
      expect([
        [200, 409],
        [409, 409],
      ]).toContainEqual(statuses);
      for (const refused of [first, second].filter((response) => response.statusCode === 409)) {
        expect(refused.json()).toMatchObject({ code: 'CATEGORY_CYCLE' });
      }
      if (statuses[0] === 200) oneWon += 1;
      const [readA, readB] = await Promise.all([shop.get(`/api/v1/categories/${a.id}`), shop.get(`/api/v1/categories/${b.id}`)]);
      expect(readA.json().data.parent_id === b.id && readB.json().data.parent_id === a.id).toBe(false);
    }
    // Serialised, the first always wins: both refused never happens for two moves.
    expect(oneWon).toBe(ROUNDS);
    expect(treeProblems(await allCategories(shop), MAX_CATEGORY_LEVELS)).toEqual([]);
  });

  it('when the two ends of a longer chain are moved under each other at once, then no cycle forms through the chain', async () => {
    const shop = new Client(catalog.running);
    for (let round = 0; round < ROUNDS; round += 1) {
      // x1 ← x2 (x2 a child of x1) and y1 ← y2: x1 under y2 and y1 under x2 at once would close x1→y2→y1→x2→x1.
      const [x1, x2] = await createChain(shop, 2);
      const [y1, y2] = await createChain(shop, 2);

      const responses = await Promise.all([
        shop.patch(`/api/v1/categories/${x1?.id}`, { parent_id: y2?.id }),
        shop.patch(`/api/v1/categories/${y1?.id}`, { parent_id: x2?.id }),
      ]);

      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    }
    expect(treeProblems(await allCategories(shop), MAX_CATEGORY_LEVELS)).toEqual([]);
  });

  it('when two moves that each fit would together make the tree six levels deep, then one of them is refused', async () => {
    const shop = new Client(catalog.running);
    for (let round = 0; round < 10; round += 1) {
      // p1 ← p2 ← p3, q1 ← q2, and a lone root `extra`. p1 under q2 alone reaches level 5 (p3); extra under p3 alone
      // reaches level 4. After the first, the second would put extra at level 6; after the second, p (now of height
      // 3) under q2 would reach level 6. So exactly one passes, whichever the lock lets in first.
      const p = await createChain(shop, 3);
      const q = await createChain(shop, 2);
      const extra = await createCategory(shop);

      const responses = await Promise.all([
        shop.patch(`/api/v1/categories/${p[0]?.id}`, { parent_id: q[1]?.id }),
        shop.patch(`/api/v1/categories/${extra.id}`, { parent_id: p[2]?.id }),
      ]);

      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 400]);
      expect(treeProblems(await allCategories(shop), MAX_CATEGORY_LEVELS)).toEqual([]);
    }
  });
});
