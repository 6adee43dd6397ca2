import { type CompiledQuery, type DatabaseConnection, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type QueryResult, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import { prepared } from "./prepared.ts";
import type { Schema } from "./schema.ts";

/** A Kysely on `engine`'s dialect whose driver only records what it is asked to run. */
function recording(engine: "sqlite" | "postgres") {
  const ran: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const connection: DatabaseConnection = {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      ran.push({ sql: query.sql, parameters: query.parameters });
      return { rows: [] };
    },
    streamQuery: () => {
      throw new Error("not used");
    },
  };
  const driver = new (class extends DummyDriver {
    override async acquireConnection() {
      return connection;
    }
  })();
  const db = new Kysely<Schema>({
    dialect: {
      createAdapter: () => (engine === "sqlite" ? new SqliteAdapter() : new PostgresAdapter()),
      createQueryCompiler: () => (engine === "sqlite" ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
      createIntrospector: (db) => (engine === "sqlite" ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createDriver: () => driver,
    },
  });
  return { db, ran };
}

describe("prepared statements", () => {
  it("compile for each database's own dialect, and bind each call's values (a list item by item)", async () => {
    const sqlite = recording("sqlite");
    const postgres = recording("postgres");
    const pick = prepared((db: Kysely<Schema>, p: { ids: number[]; state: "held" | "sold" }) =>
      db.selectFrom("reservations").select("payment_id").where("product_id", "in", p.ids).where("state", "=", p.state).where("amount", ">", 0),
    );
    for (const target of [sqlite, postgres, sqlite, postgres]) {
      await pick(target.db, { ids: [3, 1], state: "held" });
      await pick(target.db, { ids: [7], state: "sold" });
    }
    const sqliteSql = ['select "payment_id" from "reservations" where "product_id" in (?, ?) and "state" = ? and "amount" > ?', 'select "payment_id" from "reservations" where "product_id" in (?) and "state" = ? and "amount" > ?'];
    const postgresSql = ['select "payment_id" from "reservations" where "product_id" in ($1, $2) and "state" = $3 and "amount" > $4', 'select "payment_id" from "reservations" where "product_id" in ($1) and "state" = $2 and "amount" > $3'];
    const parameters = [[3, 1, "held", 0], [7, "sold", 0]];
    expect(sqlite.ran).toEqual([0, 1, 0, 1].map((i) => ({ sql: sqliteSql[i], parameters: parameters[i] })));
    expect(postgres.ran).toEqual([0, 1, 0, 1].map((i) => ({ sql: postgresSql[i], parameters: parameters[i] })));
  });
});
