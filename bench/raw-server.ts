// The baseline of bench/http.ts: a bare node:http server, in a process of its own (sharing the
// bench's event loop with autocannon halved it), that answers every request with the status,
// headers and bytes the shop sent for the same address, in the encoding the request asks for, as
// the shop chooses it. Usage: raw-server.ts <answers.json> (written by bench/http.ts, see
// RawAnswers); prints its address as the first line of stdout.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { preferredEncoding } from "../server/http/compression.ts";

/** One answer of the shop as sent: `encoding` is its Content-Encoding (null: none). */
export interface RawAnswer {
  encoding: string | null;
  status: number;
  headers: Record<string, string>;
  /** The body as sent (compressed when `encoding` says so), base64. */
  body: string;
}

export type RawAnswers = RawAnswer[];

const answers = (JSON.parse(fs.readFileSync(process.argv[2]!, "utf8")) as RawAnswers).map((answer) => ({
  ...answer,
  body: Buffer.from(answer.body, "base64"),
}));
const plain = answers.find((answer) => answer.encoding === null) ?? answers[0]!;
const offered = answers.flatMap((answer) => (answer.encoding ? [answer.encoding] : []));
/** The answer for each Accept-Encoding seen: the negotiation runs once per distinct header. */
const chosen = new Map<string, (typeof answers)[number]>();

function answerFor(accept: string | undefined) {
  const key = accept ?? "";
  let answer = chosen.get(key);
  if (!answer) {
    const encoding = preferredEncoding(accept, offered);
    answer = answers.find((candidate) => candidate.encoding === encoding) ?? plain;
    chosen.set(key, answer);
  }
  return answer;
}

const server = http.createServer((req, res) => {
  const answer = answerFor(req.headers["accept-encoding"]);
  res.writeHead(answer.status, answer.headers).end(answer.body);
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
