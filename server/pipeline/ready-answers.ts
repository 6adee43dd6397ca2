import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "../log.ts";
import { byteLength } from "./ready-answer.ts";
import type { Found, InFront, Step, Visit, Write } from "./step.ts";

/**
 * node:http's listener: the pipeline's steps walked in their order, in front of the Hono app, for
 * the answers already made (the catalogue API's prepared answers, kept pages and shells). Each
 * step's `inFront` says what it does here (step.ts): a step that admits nothing more hands the
 * request to Hono untouched, the first step that finds an answer has it written through every
 * step that wraps the writing, and a request no step answers goes to Hono.
 */
export function readyAnswers(steps: readonly Step[], hono: RequestListener, log: Logger): RequestListener {
  const walk = steps.map((step) => step.inFront).filter((front) => !("idle" in front) && !("wraps" in front)) as Array<Exclude<InFront, { idle: string } | { wraps: unknown }>>;
  const write = writer(steps, log);

  const from = (at: number, visit: Visit, res: ServerResponse): void => {
    for (let i = at; i < walk.length; i++) {
      const front = walk[i]!;
      if ("admits" in front) {
        if (!front.admits(visit)) return hono(visit.req, res);
        continue;
      }
      const found = front.finds(visit);
      if (found instanceof Promise) {
        found.then(
          (answer) => (answer ? write(visit, res, answer) : from(i + 1, visit, res)),
          // Whatever the step could not ask (the catalogue is away), its Hono route answers.
          () => hono(visit.req, res),
        );
        return;
      }
      if (found) return write(visit, res, found);
    }
    hono(visit.req, res);
  };

  return (req, res) => {
    const url = req.url ?? "";
    const query = url.indexOf("?");
    from(0, { req, url, path: query === -1 ? url : url.slice(0, query), started: performance.now(), user: null }, res);
  };
}

/** The writing of a found answer: every step that wraps it, in the pipeline's order, around node:http's own. */
function writer(steps: readonly Step[], log: Logger): (visit: Visit, res: ServerResponse, found: Found) => void {
  let write: Write = written;
  for (const step of [...steps].reverse()) if ("wraps" in step.inFront) write = step.inFront.wraps(write);
  return (visit, res, found) => {
    // Nothing here should throw (the answers are made and checked once); if it ever does, the
    // request fails alone, as Hono's adapter would make it, instead of the process.
    try {
      write(visit, res, found, []);
    } catch (error) {
      log.error({ err: error }, "ready answer failed");
      res.destroy();
    }
  };
}

/** Writes the answer with its own headers and those the wrapping steps added. */
function written(_visit: Visit, res: ServerResponse, { answer }: Found, added: string[]): void {
  const headers = ownHeaders(answer.headers).concat(added);
  if (answer.body && !("Content-Length" in answer.headers)) headers.push("Content-Length", String(byteLength(answer.body)));
  // HEAD and 304 send no body: node:http drops it (and keeps the Content-Length, as Hono's adapter does).
  // The pieces written in one turn go out in one system call (node:http corks the socket until the next tick).
  res.writeHead(answer.status, headers);
  const pieces = answer.body ?? [];
  for (let i = 0; i < pieces.length - 1; i++) res.write(pieces[i]);
  res.end(pieces.at(-1));
}

/** An answer's headers as node:http's flat list, made once per answer. */
const flatLists = new WeakMap<Record<string, string>, string[]>();
function ownHeaders(headers: Record<string, string>): string[] {
  let list = flatLists.get(headers);
  if (!list) flatLists.set(headers, (list = Object.entries(headers).flat()));
  return list;
}

/** A request that says it has a body (it takes the pipeline's body limit, in Hono). */
export const hasBody = (req: IncomingMessage): boolean => req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;

/** A header's first value. */
export const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
