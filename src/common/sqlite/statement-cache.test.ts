import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StatementCache } from './statement-cache';

describe('StatementCache', () => {
  it('compiles a key once and gives the same statement back', () => {
    const db = new Database(':memory:');
    const cache = new StatementCache(10);
    let compiled = 0;
    const compile = () => {
      compiled += 1;
      return db.prepare('SELECT 1 AS one');
    };
    const first = cache.get('one', compile);
    expect(cache.get('one', compile)).toBe(first);
    expect(compiled).toBe(1);
    expect(first.get()).toEqual({ one: 1 });
  });

  it('starts over when full', () => {
    const db = new Database(':memory:');
    const cache = new StatementCache(2);
    const a = cache.get('a', () => db.prepare('SELECT 1'));
    cache.get('b', () => db.prepare('SELECT 2'));
    cache.get('c', () => db.prepare('SELECT 3'));
    expect(cache.get('a', () => db.prepare('SELECT 1'))).not.toBe(a);
  });
});
