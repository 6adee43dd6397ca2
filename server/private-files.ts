import fs from "node:fs";
import fsp from "node:fs/promises";

/**
 * What the shop keeps under DATA_DIR is for its own user only: the SQLite database (password
 * hashes, sessions, the auth secret), the mail outbox (live reset links), the image cache. Modes
 * are set explicitly, so neither the umask nor a folder's earlier mode matters.
 */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The sticky bit: a folder everyone may write to, each in their own files (/tmp). */
const STICKY = 0o1000;

export type Privacy = { ok: true } | { ok: false; reason: string };

/**
 * Creates `dir` (and its missing parents) and makes it 0700, also when it existed with another
 * mode. A shared folder (sticky bit, such as /tmp) is left as it is: closing it would lock every
 * other user out of it; the shop's own folders and files inside it are still private.
 */
export function makePrivateDirectory(dir: string): Privacy {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  if (fs.statSync(dir).mode & STICKY) return { ok: false, reason: `${dir} is a shared folder (sticky bit), left as it is` };
  try {
    fs.chmodSync(dir, PRIVATE_DIRECTORY_MODE);
  } catch (error) {
    return { ok: false, reason: `${dir} could not be made private: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  return { ok: true };
}

/** The same for a folder the shop makes under DATA_DIR, where it must not fail quietly. */
export async function ensurePrivateDirectory(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  await fsp.chmod(dir, PRIVATE_DIRECTORY_MODE);
}

/** Writes a file readable by the shop's user only, whatever the umask and whatever a file of that name had. */
export async function writePrivateFile(file: string, data: Buffer): Promise<void> {
  await fsp.writeFile(file, data, { mode: PRIVATE_FILE_MODE });
  await fsp.chmod(file, PRIVATE_FILE_MODE);
}
