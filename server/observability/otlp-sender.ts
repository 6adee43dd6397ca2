import { Worker } from "node:worker_threads";

export interface OtlpSenderOptions {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  compression: "gzip" | "none";
  /** application/x-protobuf or application/json (OTEL_EXPORTER_OTLP_PROTOCOL). */
  contentType: string;
}

/**
 * The worker's code, plain JavaScript run from this text, so that the bundled server needs no file
 * of its own for it. It posts each batch to the collector on a kept-alive connection and answers
 * with the batch's id and an error, if any, once the socket has taken the whole body: the body is
 * the exporter's batch memory, shared, which it fills again once this answers.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const https = require("node:https");
const zlib = require("node:zlib");
const { url, headers, timeoutMs, compression, contentType } = workerData;
const target = new URL(url);
const transport = target.protocol === "https:" ? https : http;
const agent = new transport.Agent({ keepAlive: true, maxSockets: 1 });

function post(body, sent) {
  return new Promise((resolve, reject) => {
    let answer = null;
    let written = false;
    const settle = () => {
      if (answer === null || !written) return;
      if (answer.error) reject(answer.error);
      else resolve(answer.status);
    };
    const answered = (value) => {
      answer = answer || value;
      settle();
    };
    const request = transport.request(target, { method: "POST", headers: sent, agent, timeout: timeoutMs }, (response) => {
      response.resume();
      response.on("end", () => answered({ status: response.statusCode || 0 }));
      response.on("error", (error) => answered({ error }));
    });
    request.on("timeout", () => request.destroy(new Error("no answer within " + timeoutMs + " ms")));
    request.on("error", (error) => answered({ error }));
    const taken = () => {
      written = true;
      settle();
    };
    request.on("finish", taken);
    request.on("close", taken);
    request.end(body);
  });
}

parentPort.on("message", async ({ id, memory, offset, length }) => {
  try {
    let body = Buffer.from(memory, offset, length);
    const sent = { ...headers, "Content-Type": contentType };
    if (compression === "gzip") {
      body = zlib.gzipSync(body);
      sent["Content-Encoding"] = "gzip";
    }
    sent["Content-Length"] = String(body.length);
    const status = await post(body, sent);
    parentPort.postMessage({ id, error: status >= 200 && status < 300 ? null : "the collector answered " + status });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Waiting {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Sends export requests from a worker thread: the HTTP exchange with the collector and the optional
 * gzip cost the request-serving thread a few µs per span when done on it (docs/BENCHMARKS.md).
 * A batch is handed over as a place in shared memory (one small message, nothing copied or
 * transferred), which the caller leaves alone until `send` has settled. The worker keeps the
 * process alive only while a batch is on its way.
 */
export class OtlpSender {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  constructor(options: OtlpSenderOptions) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: options });
    this.worker.unref();
    this.worker.on("message", ({ id, error }: { id: number; error: string | null }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (this.waiting.size === 0) this.worker.unref();
      if (error === null) waiting?.resolve();
      else waiting?.reject(new Error(error));
    });
    this.worker.on("error", (error) => this.failAll(error));
    this.worker.on("exit", () => this.failAll(new Error("the export worker stopped")));
  }

  /** Posts `body` (a whole export request's JSON, in a SharedArrayBuffer), which must not change until this settles. */
  send(body: Buffer): Promise<void> {
    if (!(body.buffer instanceof SharedArrayBuffer)) throw new TypeError("an export body must be in shared memory");
    const id = this.nextId++;
    const sent = new Promise<void>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.worker.ref();
    this.worker.postMessage({ id, memory: body.buffer, offset: body.byteOffset, length: body.length });
    return sent;
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }

  private failAll(error: Error) {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
