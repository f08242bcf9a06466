import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** A Prisma client or an interactive transaction: repositories work with either. */
export type Db = Prisma.TransactionClient | PrismaClient;
