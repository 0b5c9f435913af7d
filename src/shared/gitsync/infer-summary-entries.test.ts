import { describe, expect, it } from 'vitest';
import { inferSummaryEntries } from './infer-summary-entries';
import type { SummaryEntry } from './parse-summary-lines';

function outline(entries: readonly SummaryEntry[]): unknown[] {
  return entries.map((entry) =>
    entry.kind === 'link'
      ? entry.children.length > 0
        ? [entry.destination, outline(entry.children)]
        : entry.destination
      : entry.kind,
  );
}

describe('inferSummaryEntries', () => {
  it('puts the first page first, then names in code-point order, folders by their README.md', () => {
    const listed = new Set([
      'b.md',
      'README.md',
      'SUMMARY.md',
      'a/README.md',
      'a/Z.md',
      'a/b.md',
      'no-readme/x.md',
      '.gitbook/includes/part.md',
      '.gitbook/assets/pic.png',
      'notes.txt',
      'odd#name?.md',
    ]);
    expect(outline(inferSummaryEntries(listed))).toEqual([
      'README.md',
      ['a/README.md', ['a/Z.md', 'a/b.md']],
      'b.md',
      'no-readme/x.md',
      'odd%23name%3F.md',
    ]);
  });

  it('honours .gitbook.yaml structure names: another first page, another summary', () => {
    const listed = new Set(['intro.md', 'README.md', 'toc.md', 'guide/README.md']);
    expect(outline(inferSummaryEntries(listed, { readme: 'intro.md', summary: 'toc.md' }))).toEqual(
      ['intro.md', 'README.md', 'guide/README.md'],
    );
  });
});
