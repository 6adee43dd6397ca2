import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import type { ImportOutcome } from "../catalogue/transfer/import.ts";
import { type Format, formatOf } from "../catalogue/transfer/parse.ts";

/**
 * The most a catalogue file may be, uploaded from the back office or posted to its API: 100,000
 * products with long descriptions are about 60 MB as JSON. It is read as it arrives, never held
 * whole (the import keeps only the rows it has checked, in a temporary file).
 */
export const CATALOGUE_FILE_BYTES = 128 * 1024 * 1024;

/** What an import answers: its outcome, or why the file was not read at all. */
export type CatalogueImport = ImportOutcome | { ok: false; status: 400 | 409 | 413 | 415; message: string };

export type ImportFile = (source: Readable, format: Format) => Promise<CatalogueImport>;

const NOT_A_FILE = "Choose a catalogue file: .csv or .json.";
const TOO_LARGE = `The file is too large: at most ${CATALOGUE_FILE_BYTES / 1024 / 1024} MB.`;

/** The format a body's Content-Type names (the API takes the file as the body itself). */
function formatOfType(contentType: string): Format | null {
  const type = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return type === "text/csv" ? "csv" : type === "application/json" ? "json" : null;
}

/**
 * Imports the catalogue file a request carries: a form's `file` field (multipart, its format by the
 * file's name) or, for the API, the body itself (`Content-Type: text/csv` or `application/json`).
 */
export function importRequest(request: Request, importFile: ImportFile): Promise<CatalogueImport> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body) return Promise.resolve({ ok: false, status: 400, message: NOT_A_FILE });
  const body = Readable.fromWeb(request.body as WebReadableStream<Uint8Array>);
  if (/^multipart\/form-data/i.test(contentType)) return importUpload(body, contentType, importFile);
  const format = formatOfType(contentType);
  if (!format) {
    body.destroy();
    return Promise.resolve({ ok: false, status: 415, message: "Send the catalogue as text/csv, application/json or a multipart form's file." });
  }
  let tooLarge = false;
  // Past the limit the stream fails, and the import with it.
  const source = Readable.from(
    (async function* () {
      let seen = 0;
      for await (const chunk of body as AsyncIterable<Buffer>) {
        seen += chunk.length;
        if (seen > CATALOGUE_FILE_BYTES) {
          tooLarge = true;
          body.destroy();
          throw new Error(TOO_LARGE);
        }
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
  return settled(importFile(source, format), () => tooLarge);
}

/** The import's outcome; 413 when the file went past the limit, whatever the import made of its end. */
function settled(importing: Promise<CatalogueImport>, tooLarge: () => boolean): Promise<CatalogueImport> {
  const large = { ok: false, status: 413, message: TOO_LARGE } as const;
  return importing.then(
    (outcome) => (tooLarge() ? large : outcome),
    (error: unknown) => {
      if (tooLarge()) return large;
      throw error;
    },
  );
}

/** A multipart form's `file` field, streamed into the import as it arrives. */
function importUpload(body: Readable, contentType: string, importFile: ImportFile): Promise<CatalogueImport> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const answer = (outcome: CatalogueImport) => {
      if (answered) return;
      answered = true;
      resolve(outcome);
    };
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: { "content-type": contentType }, limits: { files: 1, fileSize: CATALOGUE_FILE_BYTES, fields: 20 } });
    } catch {
      return answer({ ok: false, status: 400, message: NOT_A_FILE });
    }
    let importing: Promise<CatalogueImport> | null = null;
    form.on("file", (field, file, info) => {
      const format = formatOf(info.filename ?? "");
      if (field !== "file" || importing || !format) {
        file.resume();
        if (field === "file" && !format) answer({ ok: false, status: 415, message: NOT_A_FILE });
        return;
      }
      let tooLarge = false;
      file.on("limit", () => {
        tooLarge = true;
        file.destroy(new Error(TOO_LARGE));
      });
      importing = settled(importFile(file, format), () => tooLarge);
      importing.then(answer, (error: unknown) => {
        answered = true;
        reject(error);
      });
    });
    form.on("error", () => answer({ ok: false, status: 400, message: NOT_A_FILE }));
    form.on("close", () => {
      if (!importing) answer({ ok: false, status: 400, message: NOT_A_FILE });
    });
    body.on("error", () => answer({ ok: false, status: 400, message: NOT_A_FILE }));
    body.pipe(form);
  });
}
