import { HttpError } from "../http-error.ts";

/**
 * A request body that cannot be read as what its address takes (not JSON, a broken form, the wrong
 * Content-Type): a 4xx with its message, and a warning in the log, not an error: it is the
 * client's mistake (or junk), and nothing of ours failed.
 */
export class MalformedBody extends HttpError {}
