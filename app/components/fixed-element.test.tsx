import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { fixed } from "./fixed-element.ts";
import { CartIcon, SearchIcon } from "./Icons.tsx";

describe("fixed", () => {
  it("makes its element once on the server and renders it the same every time", () => {
    const make = vi.fn(() => (
      <ul>
        {["a", "b"].map((entry) => (
          <li key={entry}>{entry}</li>
        ))}
      </ul>
    ));
    const List = fixed(make);
    expect(make).toHaveBeenCalledTimes(1);
    const first = renderToString(<List />);
    expect(renderToString(<List />)).toBe(first);
    expect(renderToString(<List />)).toBe("<ul><li>a</li><li>b</li></ul>");
    expect(List()).toBe(List());
    expect(make).toHaveBeenCalledTimes(1);
  });

  it("leaves the icons' markup as it was", () => {
    expect(renderToString(<SearchIcon />)).toBe(
      '<svg aria-hidden="true" focusable="false" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round"><circle cx="10.5" cy="10.5" r="6.5"></circle><path d="m15.5 15.5 5 5"></path></svg>',
    );
    expect(renderToString(<CartIcon />)).toBe(renderToString(<CartIcon />));
  });
});
