// How a statement asks the PostgreSQL driver (postgres-driver.ts) to hold it and send it along with
// a later one of its transaction, and the marks the driver's connections read.
import { CompiledQuery, type QueryResult, type Transaction } from "kysely";

/** Statements marked by `atCommit`: inside a transaction they are held and sent with its COMMIT. */
export const heldUntilCommit = new WeakSet<CompiledQuery>();

/**
 * Marks `query` to go out along with its transaction's COMMIT, instead of costing a
 * round trip of its own where it is executed: for statements whose answer nobody reads and whose
 * effect counts only at commit anyway (`pg_notify`). Its failure still fails the commit, which
 * then rolls everything back. Outside a transaction it runs at once.
 */
export function atCommit(query: CompiledQuery): CompiledQuery {
  heldUntilCommit.add(query);
  return query;
}

/** Statements marked by `withNext`: inside a transaction they are held and sent ahead of its next statement. */
export const heldForNext = new WeakSet<CompiledQuery>();

/**
 * Marks `query` to go out, inside a transaction, sent along with the transaction's next
 * statement (or its COMMIT, or a savepoint), just ahead of it, instead of costing a round trip of
 * its own: for statements whose answer nobody reads (an insert whose row count does not matter).
 * The server runs the statements in the same order as before. Its failure is thrown by that next
 * statement (which then fails too: the transaction is aborted), so the transaction still rolls
 * back; and a transaction rolled back before anything else was sent never sends it. Its own
 * result is empty (no rows, no row count). Outside a transaction it runs at once.
 */
export function withNext(query: CompiledQuery): CompiledQuery {
  heldForNext.add(query);
  return query;
}

/** The answer of a statement marked by `withNextAnswered`, for whoever reads it once it has been sent. */
interface LaterAnswer {
  promise: Promise<QueryResult<unknown>>;
  settle(result: PromiseSettledResult<QueryResult<unknown>>): void;
  /** Set while the driver holds the statement: sends it (and what is held before it) now. */
  flush: (() => void) | null;
  settled: boolean;
}
export const laterAnswers = new WeakMap<CompiledQuery, LaterAnswer>();

/**
 * `withNext` for a statement whose answer is wanted, only not at once: `heldAnswer` gives it once
 * the statement has gone out with the transaction's next one. Asking for it sooner sends the
 * statement at once (a round trip of its own, as without this).
 */
export function withNextAnswered<Q extends CompiledQuery>(query: Q): Q {
  let settle!: LaterAnswer["settle"];
  const promise = new Promise<QueryResult<unknown>>((resolve, reject) => {
    settle = (result) => (result.status === "fulfilled" ? resolve(result.value) : reject(result.reason));
  });
  // Nobody may ask when the transaction fails before: never an unhandled rejection.
  promise.catch(() => {});
  const answer: LaterAnswer = { promise, flush: null, settled: false, settle: (result) => ((answer.settled = true), settle(result)) };
  laterAnswers.set(query, answer);
  withNext(query);
  return query;
}

/**
 * The answer of `query` (marked `withNextAnswered`) if this driver held it in a transaction (null
 * when it ran at once, outside a transaction or on another driver: its answer is what executing it
 * gave). It resolves once the statement has been sent with the transaction's next statement; asked
 * before that, it sends the statement now. It fails with the statement's failure, or when the
 * transaction ended without sending it.
 */
export function heldAnswer<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> | null {
  const answer = laterAnswers.get(query);
  if (!answer || (!answer.settled && !answer.flush)) return null;
  answer.flush?.();
  return answer.promise as Promise<QueryResult<R>>;
}

/** `pg_notify(channel, payload as JSON)` in `trx`, sent with its COMMIT: PostgreSQL delivers it only on commit anyway. */
export async function notifyAtCommit<DB>(trx: Pick<Transaction<DB>, "executeQuery">, channel: string, payload: unknown): Promise<void> {
  await trx.executeQuery(atCommit(CompiledQuery.raw("select pg_notify($1, $2)", [channel, JSON.stringify(payload)])));
}
