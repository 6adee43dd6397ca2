// The pieces of SQLite group commit (group-commit.ts): the lock units take turns with, the batch
// they commit in, and one statement run as Kysely expects.
import type SqliteDatabase from "better-sqlite3";
import type { QueryResult } from "kysely";

/** A lock that hands over in the order asked (Kysely's own wakes every waiter and lets them race). */
export class FifoLock {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  unlock(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/** One open SQLite transaction and the units in it, which learn together whether it committed. */
export class Batch {
  readonly done: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A batch nobody waits for (every unit in it failed) must not become an unhandled rejection.
    this.done.catch(() => {});
  }
}

/**
 * The statements already prepared on one connection, by their SQL: a checkout runs the same dozen
 * statements over and over, and preparing one costs more than running it. Bounded: past `limit`
 * different statements (an `in (?, ?, …)` list makes a new one per length) it starts afresh.
 * Not for `iterate`: a statement being iterated cannot run anything else until it is done.
 */
export class StatementCache {
  private readonly statements = new Map<string, SqliteDatabase.Statement>();

  constructor(
    private readonly database: SqliteDatabase.Database,
    private readonly limit = 500,
  ) {}

  get(sql: string): SqliteDatabase.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.database.prepare(sql);
      if (this.statements.size >= this.limit) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** Runs a prepared statement: rows for a statement that returns them, else the counts. */
export function run(statement: SqliteDatabase.Statement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
