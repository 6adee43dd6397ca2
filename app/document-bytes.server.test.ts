import { describe, expect, it } from "vitest";
import { afterFirstPaint } from "./after-first-paint.server.ts";
import { documentBytes, STYLESHEET_SLOT } from "./document-bytes.server.ts";

const DOCUMENT =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/a.js" nonce="n"/>' +
  '<title>Café</title><link rel="modulepreload" href="/assets/b.js"/><link rel="icon" href="/favicon.svg"/></head>' +
  '<body><p>A page that shows <link rel="modulepreload" href="/x.js"/> as text</p><script type="module">import "/assets/a.js";</script></body></html>';

const STYLESHEET = Buffer.from("body{margin:0}.card__add:after{content:\" ✓\"}");

const finished = (document: string, parts?: Parameters<typeof documentBytes>[1]) => documentBytes(Buffer.from(document), parts).toString("utf8");

describe("documentBytes", () => {
  it("drops the head's module preloads and keeps everything else", () => {
    expect(finished(DOCUMENT)).toBe(
      '<!DOCTYPE html><html><head><meta charSet="utf-8"/><title>Café</title><link rel="icon" href="/favicon.svg"/></head>' +
        '<body><p>A page that shows <link rel="modulepreload" href="/x.js"/> as text</p><script type="module">import "/assets/a.js";</script></body></html>',
    );
  });

  it("leaves a document without preloads, or that never closes its head, as it is", () => {
    const plain = '<!DOCTYPE html><html><head><title>Café</title></head><body><link rel="modulepreload" href="/x.js"/></body></html>';
    expect(finished(plain)).toBe(plain);
    const partial = '<!DOCTYPE html><html><head><link rel="modulepreload" href="/a.js"/><title>cut short';
    expect(finished(partial)).toBe(partial);
  });

  it("lays the stylesheet into the head's slot, before, between or after the preloads", () => {
    const style = `<style nonce="n">${STYLESHEET_SLOT}</style>`;
    const preload = (name: string) => `<link rel="modulepreload" href="/assets/${name}.js"/>`;
    const expected = `<html><head><meta charSet="utf-8"/><style nonce="n">${STYLESHEET.toString()}</style><title>Café</title></head><body></body></html>`;
    for (const head of [
      `<meta charSet="utf-8"/>${style}${preload("a")}<title>Café</title>${preload("b")}`,
      `<meta charSet="utf-8"/>${preload("a")}${style}<title>Café</title>${preload("b")}`,
      `${preload("a")}<meta charSet="utf-8"/>${preload("b")}${style}<title>Café</title>`,
      `<meta charSet="utf-8"/>${style}<title>Café</title>`,
    ]) {
      expect(finished(`<html><head>${head}</head><body></body></html>`, { stylesheet: STYLESHEET })).toBe(expected);
    }
  });

  it("fills the head's slot only: the same text in the body stays as it is", () => {
    const page = `<html><head><style>${STYLESHEET_SLOT}</style></head><body><script>"${STYLESHEET_SLOT}"</script></body></html>`;
    expect(finished(page, { stylesheet: STYLESHEET })).toBe(`<html><head><style>${STYLESHEET.toString()}</style></head><body><script>"${STYLESHEET_SLOT}"</script></body></html>`);
    const noSlotInHead = `<html><head><style></style></head><body>${STYLESHEET_SLOT}</body></html>`;
    expect(finished(noSlotInHead, { stylesheet: STYLESHEET })).toBe(noSlotInHead);
  });

  it("starts the document with its doctype when asked", () => {
    const page = `<html><head><link rel="modulepreload" href="/a.js"/><style>${STYLESHEET_SLOT}</style></head><body></body></html>`;
    expect(finished(page, { stylesheet: STYLESHEET, doctype: true })).toBe(`<!DOCTYPE html><html><head><style>${STYLESHEET.toString()}</style></head><body></body></html>`);
    expect(finished("<html><head></head></html>", { doctype: true })).toBe("<!DOCTYPE html><html><head></head></html>");
  });

  it("makes the route modules' script import them after the first paint, and leaves every other script alone", () => {
    const routes = 'import * as route0 from "/assets/root.js";\nwindow.__reactRouterRouteModules = {"root":route0};';
    const body = (script: string) =>
      `<body><script type="module">import "/assets/a.js";</script><p>type="module" async=""></p><script nonce="n" type="module" async="">${script}</script><script>x()</script></body></html>`;
    const page = `<html><head><link rel="modulepreload" href="/a.js"/><style>${STYLESHEET_SLOT}</style></head>${body(routes)}`;
    expect(finished(page, { stylesheet: STYLESHEET })).toBe(`<html><head><style>${STYLESHEET.toString()}</style></head>${body(afterFirstPaint(routes))}`);
    expect(afterFirstPaint(routes)).not.toBe(routes);
  });
});
