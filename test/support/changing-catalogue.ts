import { EmbeddedCatalogue } from "../../server/catalogue/embedded.ts";

/** The embedded catalogue, with a way to announce a change as a remote refresh would. */
export class ChangingCatalogue extends EmbeddedCatalogue {
  private readonly listeners = new Set<() => void>();
  override onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  change() {
    for (const listener of this.listeners) listener();
  }
}
