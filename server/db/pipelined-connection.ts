// One connection of the PostgreSQL driver (postgres-driver.ts): what it holds of a transaction, its
// prepared statements, and how it writes statements in pipeline mode.
import { CompiledQuery, type DatabaseConnection, type QueryResult } from "kysely";
import type pg from "pg";
import { heldForNext, heldUntilCommit, laterAnswers } from "./held-statements.ts";

/** pg's answer as Kysely's. */
function asQueryResult<R>({ command, rowCount, rows }: pg.QueryResult): QueryResult<R> {
  const changed = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE";
  return { numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined, rows: rows as R[] };
}

const rollbackStatement = CompiledQuery.raw("rollback");

/** Statements sent along with others for the connection's own housekeeping: their failure is never the others'. */
const cleanUps = new WeakSet<CompiledQuery>();
const cleanUp = (query: CompiledQuery) => (cleanUps.add(query), query);

/** Prepared statements kept per connection; beyond that the least recently used is deallocated. */
const MAX_PREPARED = 200;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** `*` or `t.*` as columns (a select's or a returning's), not `count(*)`. */
const ALL_COLUMNS = /(^|[\s,])("?\w+"?\.)?\*(\s|,|$)/;
/** "cached plan must not change result type" (feature_not_supported). */
const CACHED_PLAN_CHANGED = "0A000";

export class PipelinedConnection implements DatabaseConnection {
  /** The transaction's opening statement while not yet sent. */
  private opening: CompiledQuery | null = null;
  /** Whether a transaction is open (or about to be, once `opening` is sent). */
  private inTransaction = false;
  /** Statements held for COMMIT, and how many there were at each savepoint (rolled back with it). */
  private held: CompiledQuery[] = [];
  /** Statements held for the transaction's next statement (`withNext`), in order. */
  private ahead: CompiledQuery[] = [];
  private readonly heldAt = new Map<string, number>();
  /** This connection's prepared statements' names by their text, least recently used first. */
  private readonly prepared = new Map<string, string>();
  private preparedCount = 0;
  /** Names dropped from `prepared`, deallocated on the server with the next statement sent outside a transaction. */
  private unused: string[] = [];
  /**
   * How many names were dropped. pg keeps its own record of the names prepared on a connection,
   * which its public API cannot shrink: past MAX_PREPARED dropped names the connection is closed
   * on release (the pool opens a new one), which bounds that record.
   */
  private dropped = 0;

  constructor(private readonly client: pg.PoolClient) {}

  /**
   * Sent with the first statement. BEGIN does not fail on a live connection (on a lost one the
   * statement behind it fails too), so the statement cannot end up running outside the transaction.
   */
  begin(statement: string): void {
    this.opening = CompiledQuery.raw(statement);
    this.inTransaction = true;
    this.held = [];
    this.ahead = [];
    this.heldAt.clear();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction && heldUntilCommit.has(query)) {
      this.held.push(query);
      return { rows: [] };
    }
    if (this.inTransaction && heldForNext.has(query)) {
      this.ahead.push(query);
      const answer = laterAnswers.get(query);
      if (answer) answer.flush = () => void this.flush().catch(() => {}); // the failure reaches the answer
      return { rows: [] };
    }
    const opening = this.takeOpening();
    // Deallocations are not undone by a rollback, nor run in an aborted transaction: sent only outside one.
    const deallocations = opening.length > 0 || !this.inTransaction ? this.takeDeallocations() : [];
    let results: pg.QueryResult[];
    try {
      results = await this.send([...deallocations, ...opening, ...this.takeAhead(), query]);
    } catch (error) {
      // Outside a transaction, a statement refused for a table changed under it did nothing: run it again, prepared afresh.
      if (this.inTransaction || (error as { code?: unknown } | null)?.code !== CACHED_PLAN_CHANGED) throw error;
      results = await this.send([...this.takeDeallocations(), query]);
    }
    return asQueryResult<R>(results.at(-1)!);
  }

  /** Sends what is held for the next statement now (someone waits for one of its answers). */
  private async flush(): Promise<void> {
    if (this.ahead.length === 0) return;
    const opening = this.takeOpening();
    await this.send([...(opening.length > 0 ? this.takeDeallocations() : []), ...opening, ...this.takeAhead()]);
  }

  streamQuery(): AsyncIterableIterator<QueryResult<never>> {
    throw new Error("Streaming reads are not supported on PostgreSQL here.");
  }

  async commit(): Promise<void> {
    const opening = this.takeOpening();
    const statements = [...opening, ...this.takeAhead(), ...this.held, CompiledQuery.raw("commit")];
    this.end();
    // Nothing was sent: there is no transaction on the server to end.
    if (opening.length > 0 && statements.length === 2) return;
    const results = await this.send(statements);
    // A held statement that failed left the transaction aborted, and PostgreSQL answers COMMIT
    // with ROLLBACK; send() has thrown that statement's error already, but never trust silence.
    if (results.at(-1)!.command !== "COMMIT") throw new Error(`the transaction was rolled back at commit (${results.at(-1)!.command})`);
  }

  async rollback(): Promise<void> {
    const sent = this.inTransaction && this.opening === null;
    this.end();
    // A transaction whose BEGIN never went out has nothing to roll back; one whose COMMIT was sent
    // ended with it, committed or not.
    if (sent) await this.send([rollbackStatement]);
  }

  async savepoint(command: "savepoint" | "rollback to" | "release", name: string): Promise<void> {
    await this.send([...this.takeOpening(), ...this.takeAhead(), CompiledQuery.raw(`${command} "${name.replaceAll('"', '""')}"`)]);
    // What was held after a savepoint goes with it when the transaction rolls back to it.
    if (command === "savepoint") this.heldAt.set(name, this.held.length);
    else if (command === "rollback to") this.held.length = this.heldAt.get(name) ?? this.held.length;
    else this.heldAt.delete(name);
  }

  release(): void {
    this.end();
    this.client.release(this.dropped >= MAX_PREPARED);
  }

  /**
   * The name `sql` is prepared under on this connection (PostgreSQL parses and plans it once, not
   * at every execution: about half its CPU per statement), or none for a statement that is not
   * worth it or not safe to keep: one without parameters (BEGIN, COMMIT, DDL) or one whose
   * columns are `*`, whose result type a migration may change, which a prepared statement refuses
   * ("cached plan must not change result type"). At most MAX_PREPARED per connection.
   */
  private nameOf(statement: CompiledQuery): string | undefined {
    if (statement.parameters.length === 0 || !PREPARABLE.test(statement.sql) || ALL_COLUMNS.test(statement.sql)) return undefined;
    let name = this.prepared.get(statement.sql);
    if (name) this.prepared.delete(statement.sql);
    else {
      name = `storefront_${++this.preparedCount}`;
      if (this.prepared.size >= MAX_PREPARED) this.forget(this.prepared.keys().next().value!);
    }
    this.prepared.set(statement.sql, name);
    return name;
  }

  /**
   * Drops a prepared statement, and deallocates it on the server. A statement whose every run
   * failed may never have been prepared there (its Parse failed): its deallocation then fails too,
   * as a clean-up, which fails nothing else.
   */
  private forget(sql: string): void {
    const name = this.prepared.get(sql)!;
    this.prepared.delete(sql);
    this.unused.push(name);
    this.dropped++;
  }

  private takeDeallocations(): CompiledQuery[] {
    const names = this.unused;
    this.unused = [];
    return names.map((name) => cleanUp(CompiledQuery.raw(`deallocate ${name}`)));
  }

  private takeAhead(): CompiledQuery[] {
    const ahead = this.ahead;
    this.ahead = [];
    for (const query of ahead) {
      const answer = laterAnswers.get(query);
      if (answer) answer.flush = null;
    }
    return ahead;
  }

  private takeOpening(): CompiledQuery[] {
    const opening = this.opening;
    this.opening = null;
    return opening ? [opening] : [];
  }

  private end(): void {
    const unsent = this.takeAhead();
    for (const query of unsent) laterAnswers.get(query)?.settle({ status: "rejected", reason: new Error("the transaction ended before this statement was sent") });
    this.opening = null;
    this.inTransaction = false;
    this.held = [];
    this.heldAt.clear();
  }

  /**
   * Writes `statements` one after the other, in this turn of the event loop, without waiting for
   * their answers (pg's pipeline mode), then waits for every answer; the first failure, in order, is
   * thrown once all have been answered, so the connection is never handed on with answers still to come.
   */
  private async send(statements: CompiledQuery[]): Promise<pg.QueryResult[]> {
    const pending = statements.map((statement) => this.client.query({ text: statement.sql, values: [...statement.parameters], name: this.nameOf(statement) }));
    const settled = await Promise.allSettled(pending);
    settled.forEach((result, i) => laterAnswers.get(statements[i]!)?.settle(result.status === "fulfilled" ? { status: "fulfilled", value: asQueryResult(result.value) } : result));
    const failed = settled.find((result, i): result is PromiseRejectedResult => result.status === "rejected" && !cleanUps.has(statements[i]!));
    if (failed) {
      // A table changed under a prepared statement in a way PostgreSQL will not re-plan: start afresh.
      if ((failed.reason as { code?: unknown } | null)?.code === CACHED_PLAN_CHANGED) for (const sql of [...this.prepared.keys()]) this.forget(sql);
      throw failed.reason;
    }
    return settled.map((result) => (result as PromiseFulfilledResult<pg.QueryResult>).value);
  }
}
