import type { ProductOption } from '@app/contracts';

/** One refused field: its path and the message, which names it (API.md: the message names the first bad field). */
export interface OptionProblem {
  path: string;
  message: string;
}

/**
 * What is wrong with a variant's `options` against its product's: each of the product's options needs exactly one of
 * its listed values, and no other name may appear. The first problem, in the product's order of options, then the
 * unknown names; undefined when they fit.
 */
export function variantOptionsProblem(productOptions: readonly ProductOption[], given: Record<string, string>): OptionProblem | undefined {
  for (const option of productOptions) {
    const path = `options.${option.name}`;
    const value = given[option.name];
    if (value === undefined) return { path, message: `${path} is required` };
    if (!option.values.includes(value)) return { path, message: `${path} must be one of ${option.values.join(', ')}` };
  }
  const unknown = Object.keys(given).find((name) => !productOptions.some((option) => option.name === name));
  if (unknown !== undefined) {
    const path = `options.${unknown}`;
    return { path, message: `${path} is not an option of the product` };
  }
  return undefined;
}

/**
 * The rule for changing a product's options while it has variants: the change is refused when any variant's values
 * would no longer fit them (a value removed, an option added that the variant has no value for, or one removed that it
 * has), so no variant is ever left with values its product does not list. The first such variant's problem, or
 * undefined.
 */
export function optionsChangeProblem(
  options: readonly ProductOption[],
  variants: readonly { sku: string; options: Record<string, string> }[],
): OptionProblem | undefined {
  for (const variant of variants) {
    const problem = variantOptionsProblem(options, variant.options);
    if (problem)
      return { path: 'options', message: `options no longer fit variant ${variant.sku} (${problem.message.replace(/^options\./, '')})` };
  }
  return undefined;
}
