import net from "node:net";

/**
 * A TCP relay to PostgreSQL that counts the client's turns to speak (round trips): a turn is what
 * a client sends before PostgreSQL answers, counted on each connection and summed over them all.
 */
export async function turnCounter(target: URL) {
  let turns = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    let serverSpoke = true;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.on("data", (chunk) => {
      if (serverSpoke) turns++;
      serverSpoke = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      serverSpoke = true;
      client.write(chunk);
    });
    const drop = () => [client, upstream].forEach((socket) => socket.destroy());
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const relayed = new URL(target);
  relayed.hostname = "127.0.0.1";
  relayed.port = String((server.address() as net.AddressInfo).port);
  return {
    url: relayed.href,
    /** The turns taken so far. */
    get turns() {
      return turns;
    },
    /** The turns taken by `work` (the connection already open). */
    async count(work: () => Promise<unknown>): Promise<number> {
      const before = turns;
      await work();
      return turns - before;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
