import SqliteDatabase from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StatementCache } from "./commit-batch.ts";

let database: SqliteDatabase.Database;

beforeEach(() => {
  database = new SqliteDatabase(":memory:");
  database.exec("create table items (id integer primary key, name text not null)");
});

afterEach(() => database.close());

describe("StatementCache", () => {
  it("prepares each statement once and runs it again with new parameters", () => {
    const prepare = vi.spyOn(database, "prepare");
    const cache = new StatementCache(database);
    for (const name of ["a", "b", "c"]) cache.get("insert into items (name) values (?)").run(name);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(cache.get("select name from items order by id").all()).toEqual([{ name: "a" }, { name: "b" }, { name: "c" }]);
    expect(prepare).toHaveBeenCalledTimes(2);
  });

  it("keeps at most its limit of statements, starting afresh past it", () => {
    const prepare = vi.spyOn(database, "prepare");
    const cache = new StatementCache(database, 2);
    const first = cache.get("select 1");
    cache.get("select 2");
    expect(cache.get("select 1")).toBe(first);
    cache.get("select 3"); // past the limit: the cache is emptied, then holds this one
    expect(cache.get("select 1")).not.toBe(first);
    expect(prepare).toHaveBeenCalledTimes(4);
  });

  it("sees a table's new columns in a statement prepared before they were added", () => {
    const cache = new StatementCache(database);
    cache.get("insert into items (name) values (?)").run("a");
    expect(cache.get("select * from items").all()).toEqual([{ id: 1, name: "a" }]);
    database.exec("alter table items add column size integer not null default 0");
    expect(cache.get("select * from items").all()).toEqual([{ id: 1, name: "a", size: 0 }]);
  });
});
