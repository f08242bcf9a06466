import type { ProductOption } from '@app/contracts';
import { invalidInput } from '@app/service-kit';
import type { Db } from '../db/prisma.js';
import { variantOptionsOf } from '../db/variant.repository.js';
import { optionsChangeProblem } from '../domain/variant-options.js';

/**
 * A product's options may change while it has variants only if every variant's values still fit them (the product's
 * row lock, held by the caller, keeps variants from changing meanwhile): otherwise 400 naming `options`, with the
 * first variant that would no longer fit.
 */
export async function requireOptionsFitVariants(tx: Db, productId: string, options: readonly ProductOption[]): Promise<void> {
  const problem = optionsChangeProblem(options, await variantOptionsOf(tx, productId));
  if (problem) throw invalidInput(problem.path, problem.message);
}
