import { EventEmitter } from "node:events";

/** This process's subscribers of one kind of event: what every event adapter (orders, catalogue) keeps. */
export class Broadcast<E> {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit(event: E): void {
    this.emitter.emit("event", event);
  }

  subscribe(listener: (event: E) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  clear(): void {
    this.emitter.removeAllListeners();
  }
}
