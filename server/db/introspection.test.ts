import type { DatabaseIntrospector, TableMetadata } from "kysely";
import { describe, expect, it } from "vitest";
import { survivingVanishedSchemas } from "./introspection.ts";

const vanished = Object.assign(new Error('schema "test_other" does not exist'), { code: "3F000" });
const tables: TableMetadata[] = [{ name: "settings", schema: "shop", isView: false, columns: [] }];

/** An introspector whose table scans fail `failures` times with `error`, then answer. */
function flaky(failures: number, error: Error) {
  let calls = 0;
  const inner: DatabaseIntrospector = {
    getSchemas: async () => [],
    getTables: async () => {
      calls += 1;
      if (calls <= failures) throw error;
      return tables;
    },
    getMetadata: async () => ({ tables }),
  };
  return { introspector: survivingVanishedSchemas(inner), calls: () => calls };
}

describe("introspection on a PostgreSQL server shared with other schemas", () => {
  it("asks again when the scan met a schema that vanished meanwhile", async () => {
    const { introspector, calls } = flaky(2, vanished);
    expect(await introspector.getTables()).toEqual(tables);
    expect(calls()).toBe(3);
  });

  it("gives up after a few attempts, and never retries any other error", async () => {
    await expect(flaky(10, vanished).introspector.getTables()).rejects.toThrow("does not exist");
    const other = flaky(1, Object.assign(new Error("permission denied"), { code: "42501" }));
    await expect(other.introspector.getTables()).rejects.toThrow("permission denied");
    expect(other.calls()).toBe(1);
  });
});
