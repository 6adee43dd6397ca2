import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { checkFields, isImageReference } from "./fields.ts";
import { countsLine, problemLines } from "../../../lib/catalogue-file.ts";
import { formatOf, type ReadRow, readRows, UnreadableFile } from "./parse.ts";

// Reading a catalogue file row by row, checking a row, and what the command line prints.
const rowsOf = async (content: string | string[], format: "json" | "csv") => {
  const rows: ReadRow[] = [];
  for await (const row of readRows(Readable.from([content].flat().map((part) => Buffer.from(part))), format)) rows.push(row);
  return rows;
};

describe("catalogue files", () => {
  it("goes by the file's extension", () => {
    expect([formatOf("shop.json"), formatOf("/tmp/Shop.CSV"), formatOf("shop.xlsx"), formatOf("json"), formatOf("dir.csv/shop")]).toEqual(["json", "csv", null, null, null]);
  });

  it("reads a JSON array as it streams in, the rating's two fields by their column names", async () => {
    const json = '[{"id": 7, "title": "Tee", "price": 15.99, "rating": {"rate": 4.1, "count": 3}, "stock": 2}, 5, {"title": "No rating"}]';
    const rows = await rowsOf([json.slice(0, 20), json.slice(20, 61), json.slice(61)], "json");
    expect(rows).toEqual([
      { row: 1, raw: { id: 7, title: "Tee", price: 15.99, description: undefined, category: undefined, image: undefined, rating_rate: 4.1, rating_count: 3, stock: 2 } },
      { row: 2, problem: { row: 2, field: "", message: "Each entry must be a product (a JSON object)." } },
      { row: 3, raw: expect.objectContaining({ title: "No rating", rating_rate: undefined, rating_count: undefined }) },
    ]);
    await expect(rowsOf('{"id": 1}', "json")).rejects.toThrow(UnreadableFile);
    await expect(rowsOf("[1, 2", "json")).rejects.toThrow(/not a JSON array of products/);
  });

  it("reads CSV by its header, quoted fields, a byte order mark and CRLF lines", async () => {
    const csv = '\uFEFFtitle,price,description,category,stock,rating_rate\r\nTee,15.99,"Soft, ""combed""\r\ncotton",men,3,\r\n\r\nShort,1\r\n';
    expect(await rowsOf(csv, "csv")).toEqual([
      { row: 1, raw: { title: "Tee", price: "15.99", description: 'Soft, "combed"\r\ncotton', category: "men", stock: "3", rating_rate: "" } },
      { row: 2, problem: { row: 2, field: "", message: "The row has 2 fields; the header has 6." } },
    ]);
  });

  it("refuses a CSV header with an unknown, missing or repeated column, and an empty file", async () => {
    await expect(rowsOf("title,price,description,category,stock,colour\n", "csv")).rejects.toThrow('The header row has unknown column "colour".');
    await expect(rowsOf("title,title,price\n", "csv")).rejects.toThrow('no "description", "category", "stock" column; "title" more than once.');
    await expect(rowsOf("", "csv")).rejects.toThrow("The file is empty");
    await expect(rowsOf('title,price,description,category,stock\n"open,1,x,y,1\n', "csv")).rejects.toThrow(/cannot be read as CSV after row 0/);
  });

  it("checks a row by the product form's rules and a file's own fields", () => {
    const good = { id: "", title: " Tee ", price: "15.99", description: "", category: "men", image: "", rating_rate: "", rating_count: "", stock: "3" };
    expect(checkFields(good, 1, "csv")).toEqual({
      ok: true,
      value: { id: undefined, title: "Tee", priceCents: 1599, description: "", category: "men", image: "", ratingRate: undefined, ratingCount: undefined, stock: 3 },
    });
    expect(checkFields({ ...good, id: "0", price: "-1", rating_count: "2.5" }, 17, "csv")).toEqual({
      ok: false,
      problems: [
        { row: 17, field: "price", message: "The price cannot be negative." },
        { row: 17, field: "id", message: "The id must be a whole number from 1 to 999,999,999, or empty for a new product." },
        { row: 17, field: "rating_count", message: "The rating count must be a whole number from 0 to 2,147,483,647." },
      ],
    });
    expect(checkFields({ ...good, rating_rate: 6, category: "x".repeat(101) }, 2, "json")).toMatchObject({ problems: [{ field: "category" }, { field: "rating.rate" }] });
  });

  it("takes a drawing's file name, an upload, an http(s) address or nothing as a picture", () => {
    for (const image of ["", "1-canvas-backpack.svg", "upload:0a1b2c", "https://img.example.com/a.jpg", "http://host/a b.png"]) expect(isImageReference(image), image).toBe(true);
    for (const image of ["../secret", "/etc/passwd", "javascript:alert(1)", "upload:../x", "file:///etc/passwd", "a b.png"]) expect(isImageReference(image), image).toBe(false);
  });

  it("says the counts with thousands separators, and at most a hundred problems", () => {
    expect(countsLine({ added: 99_980, updated: 20, unchanged: 0 })).toBe("added 99,980, updated 20, unchanged 0");
    expect(problemLines([{ row: 17, field: "price", message: "The price cannot be negative." }, { row: null, field: "", message: "The file is empty." }])).toEqual([
      "row 17: price: The price cannot be negative.",
      "file: The file is empty.",
    ]);
    const many = Array.from({ length: 1_000 }, (_, i) => ({ row: i + 1, field: "title", message: "Enter a title." }));
    const lines = problemLines(many, 1_500);
    expect(lines).toHaveLength(101);
    expect(lines[99]).toBe("row 100: title: Enter a title.");
    expect(lines[100]).toBe("and 2,400 more");
  });
});
