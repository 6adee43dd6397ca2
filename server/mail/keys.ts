import { createHash } from "node:crypto";

/** A key for the outbox's (kind, key) uniqueness that does not reveal the secret it was made from. */
export const hashKey = (secret: string): string => createHash("sha256").update(secret).digest("hex");
