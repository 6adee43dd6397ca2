import { EmbeddedCatalogue } from "../../server/catalogue/embedded.ts";

/** The embedded catalogue, with a way to announce a change as a remote refresh would. */
export class ChangingCatalogue extends EmbeddedCatalogue {
  private readonly listeners = new Set<() => void>();
  /** The lists asked for by the listeners of the change under way, or null outside one. */
  private asked: Array<Promise<unknown>> | null = null;

  override onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  override list() {
    const products = super.list();
    this.asked?.push(products);
    return products;
  }

  /**
   * Tells the listeners, and resolves once what they did with the lists they asked for in turn has
   * run: their own callbacks on those lists were attached first, so they run before this one's.
   */
  async change(): Promise<void> {
    const asked: Array<Promise<unknown>> = [];
    this.asked = asked;
    try {
      for (const listener of this.listeners) listener();
    } finally {
      this.asked = null;
    }
    await Promise.allSettled(asked);
  }
}
