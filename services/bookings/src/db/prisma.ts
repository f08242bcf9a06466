import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** A Prisma client or an interactive transaction of one: repositories work with either. */
export type Db = PrismaClient | Prisma.TransactionClient;
