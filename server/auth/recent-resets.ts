/**
 * Users whose sessions were all revoked in this process in the last `windowMs` (a password
 * reset). A session cache cookie is trusted for up to a minute without asking the database; for
 * these users the database is asked on every request until every cache cookie made before the
 * revocation has expired, so a revoked session stops at once instead of up to a minute later.
 * Per process: another instance on the same PostgreSQL honours its cached cookies until they
 * expire (at most `windowMs`).
 */
export class RecentRevocations {
  private readonly until = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  add(userId: string): void {
    this.until.set(userId, Date.now() + this.windowMs);
  }

  has(userId: string): boolean {
    const until = this.until.get(userId);
    if (until === undefined) return false;
    if (Date.now() < until) return true;
    this.until.delete(userId);
    return false;
  }
}
