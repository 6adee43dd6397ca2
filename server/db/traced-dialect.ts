import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from "kysely";
import type { Traced } from "../observability/port.ts";

type CompileQuery = QueryCompiler["compileQuery"];

/**
 * A Kysely dialect whose every query runs in a child span of the current one (the request's), for
 * SQLite, which no OpenTelemetry instrumentation covers (PostgreSQL's queries are traced by
 * @opentelemetry/instrumentation-pg). Below Kysely, so a failed query's span carries its error.
 * Spans hold the statement as compiled, with placeholders: never the values (no user data).
 */
export function tracedDialect(inner: Dialect, trace: Traced): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => new TracedDriver(inner.createDriver(), "sqlite", trace),
  };
}

/** The statement's first word as the span's name (SELECT, INSERT ...), as OpenTelemetry's conventions have it. */
function operation(sql: string): string {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "QUERY";
}

class TracedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly system: string,
    private readonly trace: Traced,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const name = operation(query.sql);
    return this.trace(name, { "db.system.name": this.system, "db.operation.name": name, "db.query.text": query.sql }, () =>
      this.inner.executeQuery<R>(query),
    );
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Hands the inner driver its own connections back: drivers keep private state on them. */
const unwrap = (connection: DatabaseConnection) => (connection instanceof TracedConnection ? connection.inner : connection);

class TracedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly system: string,
    private readonly trace: Traced,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new TracedConnection(await this.inner.acquireConnection(), this.system, this.trace);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.step("BEGIN", () => this.inner.beginTransaction(unwrap(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection) {
    return this.step("COMMIT", () => this.inner.commitTransaction(unwrap(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection) {
    return this.step("ROLLBACK", () => this.inner.rollbackTransaction(unwrap(connection)));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    return this.savepointStep("savepoint", connection, name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    return this.savepointStep("rollbackToSavepoint", connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: CompileQuery) {
    return this.savepointStep("releaseSavepoint", connection, name, compile);
  }

  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy() {
    return this.inner.destroy();
  }

  private async savepointStep(step: "savepoint" | "rollbackToSavepoint" | "releaseSavepoint", connection: DatabaseConnection, name: string, compile: CompileQuery) {
    const method = this.inner[step];
    if (!method) throw new Error(`This database driver has no ${step}.`);
    await method.call(this.inner, unwrap(connection), name, compile);
  }

  private step(name: string, run: () => Promise<void>) {
    return this.trace(name, { "db.system.name": this.system, "db.operation.name": name }, run);
  }
}
