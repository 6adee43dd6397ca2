import net, { type AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * What the server does with the next message it receives: accept it; refuse it with a temporary
 * error (451); or read it all and never answer (the sender is stuck before our "sent" mark).
 */
export type SmtpBehaviour = "accept" | "refuse" | "hang";

export interface TestSmtpServer {
  port: number;
  /** smtp://user:password@127.0.0.1:port, as SMTP_URL takes it (the server accepts any login). */
  url: string;
  /** Messages the server accepted, parsed, in arrival order. */
  accepted: ParsedMail[];
  /** Every message the server read, accepted or not. */
  received: ParsedMail[];
  /** Logins seen (user names), to check SMTP_URL's credentials were used. */
  logins: string[];
  behaviour: SmtpBehaviour;
  /** True: the server is down (every connection is dropped at once, before its greeting); it keeps its port meanwhile. */
  down: boolean;
  /** Resolves once `count` messages have been accepted (or rejects after `timeoutMs`). */
  waitForAccepted(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Resolves once `count` messages have been received in any way. */
  waitForReceived(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (the `smtp-server` package), parsing what arrives with `mailparser`. */
export async function startSmtpServer(options: { user?: string; password?: string } = {}): Promise<TestSmtpServer> {
  const waiters: Array<() => void> = [];
  const notify = () => waiters.splice(0).forEach((wake) => wake());
  const state = {
    accepted: [] as ParsedMail[],
    received: [] as ParsedMail[],
    logins: [] as string[],
    behaviour: "accept" as SmtpBehaviour,
    down: false,
  };
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // A "hang" test leaves a connection open: do not wait long for it when closing.
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      state.logins.push(auth.username ?? "");
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      const behaviour = state.behaviour;
      simpleParser(stream).then(
        (mail) => {
          state.received.push(mail);
          if (behaviour === "accept") state.accepted.push(mail);
          notify();
          if (behaviour === "accept") callback(null);
          else if (behaviour === "refuse") callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
          // "hang": no answer at all
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  // Clients connect through this front door, which can be "down" without giving up its port (a
  // port given up and taken again later may meanwhile go to another test's server).
  const sockets = new Set<net.Socket>();
  const front = net.createServer((socket) => {
    if (state.down) return socket.destroy();
    const back = net.connect((server.server.address() as AddressInfo).port, "127.0.0.1");
    for (const end of [socket, back]) {
      sockets.add(end);
      end.on("error", () => {});
      end.on("close", () => {
        sockets.delete(end);
        socket.destroy();
        back.destroy();
      });
    }
    socket.pipe(back).pipe(socket);
  });
  await new Promise<void>((resolve, reject) => {
    front.once("error", reject);
    front.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (front.address() as AddressInfo).port;
  const until = (ready: () => boolean, list: () => ParsedMail[], what: string, timeoutMs: number) =>
    new Promise<ParsedMail[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`SMTP server: timed out waiting for ${what}; got ${list().length}`)), timeoutMs);
      const check = () => {
        if (ready()) {
          clearTimeout(timer);
          resolve(list());
        } else waiters.push(check);
      };
      check();
    });
  return Object.assign(state, {
    port,
    url: `smtp://${options.user ?? "shop"}:${options.password ?? "s3cret-pass"}@127.0.0.1:${port}`,
    waitForAccepted: (count: number, timeoutMs = 10_000) =>
      until(() => state.accepted.length >= count, () => state.accepted, `${count} accepted messages`, timeoutMs),
    waitForReceived: (count: number, timeoutMs = 10_000) =>
      until(() => state.received.length >= count, () => state.received, `${count} received messages`, timeoutMs),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The plain-text body of a parsed message ("" when it has none). */
export const textOf = (mail: ParsedMail): string => mail.text ?? "";
