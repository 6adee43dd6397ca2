import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { QuietStorages } from "./quiet-storages.ts";

describe("QuietStorages", () => {
  it("disables its storages once the last call has finished", async () => {
    const storage = new AsyncLocalStorage<string>();
    const quiet = new QuietStorages([storage]);
    await storage.run("outer", async () => {
      expect(await quiet.run(async () => storage.run("call", async () => storage.getStore()))).toBe("call");
      // Disabled (Node's API): no store any more, not even the one this code runs in.
      expect(storage.getStore()).toBeUndefined();
    });
  });

  it("keeps them while another call is under way, and a later call has its store again", async () => {
    const storage = new AsyncLocalStorage<string>();
    const quiet = new QuietStorages([storage]);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = quiet.run(() =>
      storage.run("slow", async () => {
        await gate;
        return storage.getStore();
      }),
    );
    await quiet.run(async () => storage.run("quick", async () => storage.getStore()));
    release();
    expect(await slow).toBe("slow");
    expect(await quiet.run(async () => storage.run("later", async () => storage.getStore()))).toBe("later");
  });

  it("disables them after a call that failed too", async () => {
    const storage = new AsyncLocalStorage<string>();
    const quiet = new QuietStorages([storage]);
    await storage.run("outer", async () => {
      await expect(quiet.run(async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
      expect(storage.getStore()).toBeUndefined();
    });
  });
});
