import type { CompiledQuery, DialectAdapter, Kysely, QueryResult } from "kysely";
import { heldAnswer, withNext, withNextAnswered } from "./postgres-driver.ts";

/** A query builder (`compile()`) or a raw sql`` (`compile(db)`): what a prepared statement is built from. */
interface Compilable<DB, Row> {
  compile(db: Kysely<DB>): CompiledQuery<Row>;
}

/** Stands in for a parameter's value (or one item of a list parameter's) while the query is built. */
class Placeholder {
  constructor(
    readonly name: string,
    readonly index: number | null,
  ) {}
}

/** A compiled shape: its SQL and constant parameters, and where each call's values go. */
interface Shape {
  compiled: CompiledQuery;
  holes: Array<{ at: number; name: string; index: number | null }>;
}

/** Shapes kept per statement and database; more than this (list lengths nobody sends) starts the map again. */
const MAX_SHAPES = 256;

/**
 * A statement built and compiled by Kysely once per database and shape, then run with each call's
 * values: building a query (immutable operation nodes, cloned and frozen at every step) and
 * compiling it cost more CPU than better-sqlite3 running a cheap one.
 *
 * `build` gets stand-ins for the values, which it may only hand to Kysely as values (in a where,
 * a set, values, limit, sql``...): they take the places Kysely's compiled parameters give them, so
 * the statement is Kysely's own, placeholders (`?` or `$1`) and all, for either engine. A list
 * parameter (an array) is a list of stand-ins as long as the call's: each length is a shape of its
 * own, so `build` may follow the lengths, never the values. A stand-in used otherwise (in
 * arithmetic, JSON, a condition) does not reach the compiled parameters, and the build throws.
 *
 * The results are what the builder's `execute()` would get (`.rows`, `numAffectedRows`): no
 * plugin transforms them, and a Kysely with plugins is refused rather than half served.
 *
 * `.withNext(db, params)` runs it without answering anything: on PostgreSQL, inside a transaction,
 * it goes out with the transaction's next statement (postgres-driver.ts, `withNext`), saving a
 * round trip; its failure fails that statement and so the transaction. Elsewhere it runs at once.
 * `.withNextAnswered(db, params)` does the same for a statement whose answer is wanted, only later: it
 * gives a function answering it, to call once the transaction's next statement has run (calling
 * it sooner sends the statement on its own, a round trip as without this).
 */
export function prepared<DB, P extends object, Row>(build: (db: Kysely<DB>, params: P) => Compilable<DB, Row>) {
  // Keyed by the dialect's adapter: one per Kysely instance, shared by its transactions.
  const byDatabase = new WeakMap<DialectAdapter, Map<string, Shape>>();
  const compiled = (db: Kysely<DB>, params: P): CompiledQuery<Row> => {
    const executor = db.getExecutor();
    let shapes = byDatabase.get(executor.adapter);
    if (!shapes) {
      if (executor.plugins.length > 0) throw new Error("prepared statements need a Kysely without plugins (results would skip their transforms)");
      byDatabase.set(executor.adapter, (shapes = new Map()));
    }
    const values = params as Record<string, unknown>;
    const key = shapeKey(values);
    let shape = shapes.get(key);
    if (!shape) {
      if (shapes.size >= MAX_SHAPES) shapes.clear();
      shape = compileShape(db, build, params);
      shapes.set(key, shape);
    }
    const parameters = shape.compiled.parameters.slice();
    for (const { at, name, index } of shape.holes) parameters[at] = index === null ? values[name] : (values[name] as readonly unknown[])[index];
    return { ...(shape.compiled as CompiledQuery<Row>), parameters };
  };
  const run = (db: Kysely<DB>, params: P): Promise<QueryResult<Row>> => db.executeQuery<Row>(compiled(db, params));
  return Object.assign(run, {
    withNext: async (db: Kysely<DB>, params: P): Promise<void> => {
      await db.executeQuery(withNext(compiled(db, params)));
    },
    withNextAnswered: async (db: Kysely<DB>, params: P): Promise<() => Promise<QueryResult<Row>>> => {
      const query = withNextAnswered(compiled(db, params));
      const result = await db.executeQuery(query);
      return () => heldAnswer(query) ?? Promise.resolve(result);
    },
  });
}

/** The lengths of the list parameters: "" when there are none. */
function shapeKey(params: Record<string, unknown>): string {
  let key = "";
  for (const name in params) {
    const value = params[name];
    if (Array.isArray(value)) key += `${name}:${value.length},`;
  }
  return key;
}

function compileShape<DB, P extends object, Row>(db: Kysely<DB>, build: (db: Kysely<DB>, params: P) => Compilable<DB, Row>, params: P): Shape {
  const standIns: Record<string, unknown> = {};
  const unplaced = new Set<string>();
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) {
      standIns[name] = value.map((_, index) => new Placeholder(name, index));
      value.forEach((_, index) => unplaced.add(`${name}[${index}]`));
    } else {
      standIns[name] = new Placeholder(name, null);
      unplaced.add(name);
    }
  }
  const compiled = build(db, standIns as P).compile(db);
  const holes: Shape["holes"] = [];
  compiled.parameters.forEach((value, at) => {
    if (!(value instanceof Placeholder)) return;
    holes.push({ at, name: value.name, index: value.index });
    unplaced.delete(value.index === null ? value.name : `${value.name}[${value.index}]`);
  });
  if (unplaced.size > 0) throw new Error(`prepared statement: ${[...unplaced].join(", ")} not used as a value of the query (only hand parameters to Kysely as values)`);
  return { compiled, holes };
}
