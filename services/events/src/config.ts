import { z } from 'zod';
import { baseConfigSchema } from '@app/service-kit';

export const configSchema = baseConfigSchema.safeExtend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3004),
});
export type Config = z.infer<typeof configSchema>;
