import { API_KEY_OPERATIONS, type OperationRule } from '@app/contracts';

interface CompiledRule {
  operationId: string;
  method: OperationRule['method'];
  pattern: RegExp;
  publishable: boolean;
  /** Literal segments of the template: a more literal template wins over a parameter in the same place. */
  literals: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(operationId: string, rule: OperationRule): CompiledRule {
  const segments = rule.path.split('/');
  const source = segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escape(segment))).join('/');
  return {
    operationId,
    method: rule.method,
    pattern: new RegExp(`^${source}/?$`),
    publishable: rule.publishable === true,
    literals: segments.filter((segment) => !segment.startsWith('{')).length,
  };
}

/**
 * Which operation of API_KEY_OPERATIONS a proxied request is, from its method and path: the gateway proxies by
 * prefix and never sees the services' routes, so it judges a key by the table's path templates, compiled once.
 */
export class OperationMatcher {
  private readonly rules: CompiledRule[];

  constructor(table: Record<string, OperationRule> = API_KEY_OPERATIONS) {
    this.rules = Object.entries(table)
      .map(([operationId, rule]) => compile(operationId, rule))
      .sort((a, b) => b.literals - a.literals);
  }

  /** The operationId of `method path` (HEAD as GET), or undefined for a request no operation of the table is. */
  operationOf(method: string, path: string): string | undefined {
    const wanted = method === 'HEAD' ? 'GET' : method;
    return this.rules.find((rule) => rule.method === wanted && rule.pattern.test(path))?.operationId;
  }

  /** The methods a publishable key may use on `path` (its public operations there); empty when none. */
  publicMethodsOf(path: string): OperationRule['method'][] {
    return this.rules.filter((rule) => rule.publishable && rule.pattern.test(path)).map((rule) => rule.method);
  }
}
