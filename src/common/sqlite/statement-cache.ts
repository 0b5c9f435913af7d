import type { Statement } from 'better-sqlite3';

/**
 * Prepared statements of one connection, by key (usually the SQL text). Compiling SQL costs more
 * than running the small queries both databases make, and hot paths prepare the same few
 * statements again and again. Bounded: when full it is emptied, so dynamic SQL cannot grow it
 * without end.
 */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly maxSize: number) {}

  /** The statement kept under `key`, or the one `compile` makes, which is then kept. */
  get(key: string, compile: () => Statement): Statement {
    let statement = this.statements.get(key);
    if (statement === undefined) {
      statement = compile();
      if (this.statements.size >= this.maxSize) this.statements.clear();
      this.statements.set(key, statement);
    }
    return statement;
  }
}
