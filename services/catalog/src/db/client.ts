import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type Db = PrismaClient;
/** A Prisma client or an open interactive transaction. */
export type Tx = Prisma.TransactionClient;
