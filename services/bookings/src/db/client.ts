import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** The client or a transaction of it: repositories work with either. */
export type Db = PrismaClient | Prisma.TransactionClient;
