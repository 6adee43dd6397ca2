import type { SessionUser } from "../auth/auth.ts";
import { acceptsGzip } from "../http/compression.ts";
import { shareablePage } from "./anonymous-pages.ts";
import { type CutShell, cutShell, fills } from "./shell-holes.ts";
import type { ReadyAnswer } from "../pipeline/ready-answer.ts";
import { SizedLru } from "./sized-lru.ts";
import { joined } from "../pipeline/ready-answer.ts";
import { SplicedGzip } from "./spliced-gzip.ts";

interface Shell extends CutShell {
  page: SplicedGzip;
  /** The filled page's headers, plain and gzipped, made once (without Content-Length: the sender adds the body's). */
  plainHeaders: Record<string, string>;
  gzipHeaders: Record<string, string>;
}

/** Renders a page for the placeholder user of `user`'s role, with `nonce` (the first asker's). */
export type ShellRender = () => Promise<{ response: Response; nonce: string }>;

/**
 * Signed-in pages from personal shells (partial prerendering): one shell per address and kind of
 * user (customer, admin), rendered once for a placeholder user (shell-holes.ts) and filled per
 * response with the user's values and the response's nonce, gzipped without compressing the page
 * again (SplicedGzip). A shell holds no user's data, so sharing it cannot leak one user's page to
 * another; the answers built from it are private. Bounded by entries and bytes (least recently
 * used goes first), dropped where the catalogue changes, like the anonymous page cache.
 */
export class PersonalShells {
  private readonly entries: SizedLru<Shell>;
  /** Renders under way: requests for the same shell meanwhile wait for it instead of rendering it again. */
  private readonly rendering = new Map<string, Promise<Shell | null>>();
  /** Moves on each drop: a render that started before one is used but not kept (it may show the old data). */
  private generation = 0;

  constructor(limits: { maxEntries: number; maxBytes: number }) {
    this.entries = new SizedLru(limits, (shell) => shell.page.bytes);
  }

  /**
   * The page at `address` (path and query) for `user`, from its shell (rendered now with `render`
   * when there is none), with `nonce`, gzipped when the client takes gzip; null when this page
   * cannot come from a shell (not a 200 HTML page, sets a cookie, ...): the caller renders it in full.
   */
  async page(address: string, user: SessionUser, nonce: string, acceptEncoding: string | undefined, render: ShellRender): Promise<Response | null> {
    const key = keyOf(address, user);
    const kept = this.entries.use(key);
    const shell = kept ?? (await this.rendered(key, render));
    const answer = shell && filled(shell, user, nonce, acceptEncoding);
    if (!answer) return null;
    const headers = new Headers(answer.headers);
    if (!kept) headers.set("X-Page-Shell", "miss");
    return new Response(answer.body && joined(answer.body), { status: answer.status, headers });
  }

  /**
   * As `page`, from a shell already kept, as the status, headers and bytes to send (what node:http
   * writes without a Response): null when there is no such shell, and nothing is rendered.
   */
  kept(address: string, user: SessionUser, nonce: string, acceptEncoding: string | undefined): ReadyAnswer | null {
    const shell = this.entries.use(keyOf(address, user));
    return shell ? filled(shell, user, nonce, acceptEncoding) : null;
  }

  private rendered(key: string, render: ShellRender): Promise<Shell | null> {
    const running = this.rendering.get(key);
    if (running) return running;
    const generation = this.generation;
    const shell = render()
      .then(({ response, nonce }) => shellOf(response, nonce))
      // A render that failed is rendered again in full by the caller, which reports what went wrong.
      .catch(() => null)
      .then((made) => {
        this.rendering.delete(key);
        if (made && generation === this.generation) this.entries.set(key, made);
        return made;
      });
    this.rendering.set(key, shell);
    return shell;
  }

  /** Drops the shells of the addresses `affected` picks (the pages that show a changed product). */
  drop(affected: (address: string) => boolean): void {
    this.generation++;
    this.entries.drop((key) => affected(key.slice(key.indexOf(" ") + 1)));
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** What is kept, as text (each hole shown as its field): for tests that check no user's data is stored. */
  stored(): Array<{ key: string; text: string }> {
    return [...this.entries.kept()].map(([key, shell]) => ({ key, text: shell.parts.map((part, i) => (i > 0 ? `{${shell.holes[i - 1]!.field}}${part}` : part)).join("") }));
  }
}

const keyOf = (address: string, user: SessionUser): string => `${user.role} ${address}`;

/** `shell` filled for `user` and `nonce`, gzipped when the client takes gzip; null when the user's values cannot fill it. */
function filled(shell: Shell, user: SessionUser, nonce: string, acceptEncoding: string | undefined): ReadyAnswer | null {
  const values = fills(shell.holes, user, nonce);
  if (!values) return null;
  const gzip = acceptsGzip(acceptEncoding);
  return { status: 200, headers: gzip ? shell.gzipHeaders : shell.plainHeaders, body: gzip ? shell.page.gzip(values) : shell.page.text(values) };
}

/** The shell of a placeholder render, when it may be one: 200, HTML, no cookie set, and cut cleanly. */
async function shellOf(response: Response, nonce: string): Promise<Shell | null> {
  if (!shareablePage(response)) {
    await response.body?.cancel();
    return null;
  }
  const cut = cutShell(await response.text(), nonce);
  if (!cut) return null;
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "content-length"));
  // Private, whoever's it is: no shared cache (nor the browser's) keeps a signed-in page.
  const plainHeaders = { ...headers, "cache-control": "private, no-store", vary: "Accept-Encoding", "x-page-shell": "hit" };
  return { ...cut, page: new SplicedGzip(cut.parts), plainHeaders, gzipHeaders: { ...plainHeaders, "content-encoding": "gzip" } };
}
