import { EventEmitter } from "node:events";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { memoryLogger } from "../../test/support/logger.ts";
import { readyAnswers } from "./ready-answers.ts";
import type { Found, InFront, Step } from "./step.ts";

// The walk in front of Hono, on steps made for the test: each step's `inFront` is asked in the
// list's order, exactly as the Hono chain runs them.

const answer = (body: string): Found => ({ route: "/r", nonce: "n", answer: { status: 200, headers: { "Content-Type": "text/plain" }, body: [Buffer.from(body)] } });
const step = (name: string, inFront: InFront): Step => ({ name, hono: () => {}, inFront });

function response() {
  const written: { status?: number; headers?: string[]; body: string[] } = { body: [] };
  const res = Object.assign(new EventEmitter(), {
    writeHead: (status: number, headers: string[]) => Object.assign(written, { status, headers }),
    write: (piece: Uint8Array) => written.body.push(Buffer.from(piece).toString()),
    end: (piece?: Uint8Array) => piece && written.body.push(Buffer.from(piece).toString()),
    destroy: vi.fn(),
  });
  return { res: res as unknown as ServerResponse, written };
}

const request = (url: string, method = "GET") => ({ url, method, headers: {} }) as IncomingMessage;

function run(steps: Step[], url = "/a") {
  const hono = vi.fn<RequestListener>();
  const { res, written } = response();
  readyAnswers(steps, hono, memoryLogger().log)(request(url), res);
  return { hono, written };
}

describe("answers in front of Hono", () => {
  it("writes the first answer found, through every wrapping step in the list's order", () => {
    const order: string[] = [];
    const wraps = (name: string): InFront => ({
      wraps: (write) => (visit, res, found, headers) => {
        order.push(name);
        headers.push(`X-${name}`, "1");
        write(visit, res, found, headers);
      },
    });
    const later = vi.fn(() => answer("later"));
    const { hono, written } = run([step("outer", wraps("outer")), step("gate", { admits: () => true }), step("inner", wraps("inner")), step("first", { finds: () => answer("first") }), step("second", { finds: later })]);
    expect(hono).not.toHaveBeenCalled();
    expect(later).not.toHaveBeenCalled();
    expect(order).toEqual(["outer", "inner"]);
    expect(written).toEqual({ status: 200, headers: ["Content-Type", "text/plain", "X-outer", "1", "X-inner", "1", "Content-Length", "5"], body: ["first"] });
  });

  it("hands the request to Hono as soon as a step admits it no further", () => {
    const after = vi.fn(() => answer("never"));
    const { hono, written } = run([step("gate", { admits: (visit) => visit.path !== "/a" }), step("finds", { finds: after })], "/a?x=1");
    expect(hono).toHaveBeenCalledOnce();
    expect(after).not.toHaveBeenCalled();
    expect(written.status).toBeUndefined();
  });

  it("goes on after a step that waits and finds nothing, and to Hono when no step answers", async () => {
    const gate = vi.fn(() => true);
    const { hono } = run([step("waits", { finds: () => Promise.resolve(null) }), step("gate", { admits: gate }), step("idle", { idle: "nothing to do" })]);
    await vi.waitFor(() => expect(hono).toHaveBeenCalledOnce());
    expect(gate).toHaveBeenCalledOnce();
  });

  it("gives Hono the request when a step could not ask for its answer", async () => {
    const { hono } = run([step("fails", { finds: () => Promise.reject(new Error("away")) })]);
    await vi.waitFor(() => expect(hono).toHaveBeenCalledOnce());
  });
});
