import type { CacheDb } from '../cache/open-cache-database';

/** A change request checked out into a folder (the folder is its `spaces` row's folder_path). */
export interface CheckoutRow {
  /** The id its files, index, edits and outbox are kept under (a `spaces` row of its own). */
  key: string;
  spaceId: string;
  changeRequestId: string;
  number: number;
  subject: string;
  /** Last status seen on the server. */
  status: string;
  createdAt: string;
  closedWithPending: boolean;
}

interface Row {
  key: string;
  space_id: string;
  change_request_id: string;
  number: number;
  subject: string;
  status: string;
  created_at: string;
  closed_with_pending: number;
}

/** The key a checkout's rows are kept under: never a server's space id (ours have no `:`). */
export function checkoutKey(spaceId: string, changeRequestId: string): string {
  return `checkout:${spaceId}:${changeRequestId}`;
}

/** Whether a key is a checkout's (see checkoutKey), not a server's space id. */
export function isCheckoutKey(key: string): boolean {
  return key.startsWith('checkout:');
}

/** Queries over `checkouts`. */
export class CheckoutStore {
  constructor(private readonly db: CacheDb) {}

  list(): CheckoutRow[] {
    const rows = this.db
      .prepare('SELECT * FROM checkouts ORDER BY space_id, number')
      .all() as Row[];
    return rows.map(checkoutOf);
  }

  get(key: string): CheckoutRow | undefined {
    const row = this.db.prepare('SELECT * FROM checkouts WHERE key = ?').get(key) as
      Row | undefined;
    return row ? checkoutOf(row) : undefined;
  }

  /** The space whose server calls a key stands for (the key itself when not a checkout's). */
  spaceIdOf(key: string): string {
    if (!isCheckoutKey(key)) return key;
    return this.get(key)?.spaceId ?? key;
  }

  isCheckout(key: string): boolean {
    return isCheckoutKey(key) && this.get(key) !== undefined;
  }

  /** Call inside the transaction that inserts the checkout's `spaces` row. */
  insert(row: Omit<CheckoutRow, 'closedWithPending'>): void {
    this.db
      .prepare(
        `INSERT INTO checkouts (key, space_id, change_request_id, number, subject, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.key,
        row.spaceId,
        row.changeRequestId,
        row.number,
        row.subject,
        row.status,
        row.createdAt,
      );
  }

  /** The server's view of it. */
  record(key: string, status: string, subject: string): void {
    this.db
      .prepare('UPDATE checkouts SET status = ?, subject = ? WHERE key = ?')
      .run(status, subject, key);
  }

  markClosedWithPending(key: string, closed: boolean): void {
    this.db
      .prepare('UPDATE checkouts SET closed_with_pending = ? WHERE key = ?')
      .run(closed ? 1 : 0, key);
  }
}

function checkoutOf(row: Row): CheckoutRow {
  return {
    key: row.key,
    spaceId: row.space_id,
    changeRequestId: row.change_request_id,
    number: row.number,
    subject: row.subject,
    status: row.status,
    createdAt: row.created_at,
    closedWithPending: row.closed_with_pending === 1,
  };
}
