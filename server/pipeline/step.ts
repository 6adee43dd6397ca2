import type { IncomingMessage, ServerResponse } from "node:http";
import type { Hono } from "hono";
import type { SessionUser } from "../auth/auth.ts";
import type { AppEnv } from "../http/env.ts";
import type { ReadyAnswer } from "./ready-answer.ts";

/*
 * The request pipeline is one declared list of steps (server/app.ts `pipelineSteps`). Each step
 * says what it is in the Hono chain and what it does in front of it, where node:http itself gives
 * the answers that are already made (ready-answers.ts): building Hono's Request, Context and
 * Response and running its chain cost more than such an answer. Both paths are built from the same
 * list, so a step cannot be added to one and forgotten in the other.
 */

/** A request as the path in front of Hono sees it. */
export interface Visit {
  readonly req: IncomingMessage;
  /** The address as sent (path and query): answers are kept under it. */
  readonly url: string;
  readonly path: string;
  /** performance.now() when the request came in. */
  readonly started: number;
  /** The signed-in visitor, once the session step has found a session this process knows; else null. */
  user: SessionUser | null;
}

/** An answer found in front of Hono: what it is, the route it is counted under, and its page's CSP nonce. */
export interface Found {
  route: string;
  answer: ReadyAnswer;
  nonce: string;
}

/** Writes a found answer; `headers` are node:http's flat list, added to by the steps that wrap the writing. */
export type Write = (visit: Visit, res: ServerResponse, found: Found, headers: string[]) => void;

/** What a step does in front of Hono. */
export type InFront =
  /** Whether the request may still be answered in front; false hands it to Hono as it came. */
  | { readonly admits: (visit: Visit) => boolean }
  /** The answer already made for the request, if this step has one (a promise when it must ask first). */
  | { readonly finds: (visit: Visit) => Found | null | Promise<Found | null> }
  /** Takes part in writing every answer given in front (observing it, adding headers). */
  | { readonly wraps: (write: Write) => Write }
  /** Nothing to do for an answer in front, and why. */
  | { readonly idle: string };

/** One step of the pipeline. */
export interface Step {
  /** The step's name (docs/ARCHITECTURE.md "One request"). */
  readonly name: string;
  /** Puts the step into the Hono chain: a middleware for every request, or a mounted router. */
  readonly hono: (app: Hono<AppEnv>) => void;
  readonly inFront: InFront;
}
