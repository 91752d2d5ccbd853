import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';

/** Repositories take either the database or a transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;
