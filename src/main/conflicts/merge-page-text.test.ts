import { describe, expect, it } from 'vitest';
import { mergePageText } from './merge-page-text';

const page = (...lines: string[]) => `${lines.join('\n')}\n`;
const BASE = page(
  '# Setup',
  '',
  'First paragraph.',
  '',
  'Second paragraph.',
  '',
  'Third paragraph.',
);

describe('mergePageText', () => {
  it('takes the side that changed, or either when both made the same change', () => {
    const edited = BASE.replace('First', 'Opening');
    expect(mergePageText(BASE, edited, BASE)).toEqual({ kind: 'merged', text: edited });
    expect(mergePageText(BASE, BASE, edited)).toEqual({ kind: 'merged', text: edited });
    expect(mergePageText(BASE, edited, edited)).toEqual({ kind: 'merged', text: edited });
  });

  it('merges edits of different lines', () => {
    const local = BASE.replace('First', 'Opening');
    const remote = BASE.replace('Third', 'Closing');
    expect(mergePageText(BASE, local, remote)).toEqual({
      kind: 'merged',
      text: page(
        '# Setup',
        '',
        'Opening paragraph.',
        '',
        'Second paragraph.',
        '',
        'Closing paragraph.',
      ),
    });
  });

  it('merges a line added on one side with an edit elsewhere on the other', () => {
    const local = `${BASE}\nA fourth, added here.\n`;
    const remote = BASE.replace('# Setup', '# Set-up');
    const merged = mergePageText(BASE, local, remote);
    expect(merged).toEqual({ kind: 'merged', text: `${remote}\nA fourth, added here.\n` });
  });

  it('reports overlapping edits of the same line as a conflict, naming the line', () => {
    const local = BASE.replace('Second paragraph.', 'Second, mine.');
    const remote = BASE.replace('Second paragraph.', 'Second, theirs.');
    expect(mergePageText(BASE, local, remote)).toEqual({
      kind: 'conflict',
      reason: 'both sides edited line 5',
    });
  });

  it('reports a conflict when both sides insert different text at the same place', () => {
    const local = BASE.replace('Third paragraph.\n', 'Third paragraph.\n\nMine.\n');
    const remote = BASE.replace('Third paragraph.\n', 'Third paragraph.\n\nTheirs.\n');
    expect(mergePageText(BASE, local, remote).kind).toBe('conflict');
  });

  it('ignores CRLF vs LF, keeping the local line endings and BOM', () => {
    const local = `\uFEFF${BASE.replace('First', 'Opening').replace(/\n/g, '\r\n')}`;
    const remote = BASE.replace('Third', 'Closing');
    const merged = mergePageText(BASE, local, remote);
    expect(merged).toEqual({
      kind: 'merged',
      text: `\uFEFF${page('# Setup', '', 'Opening paragraph.', '', 'Second paragraph.', '', 'Closing paragraph.').replace(/\n/g, '\r\n')}`,
    });
  });

  it('keeps a missing final newline from one side with an edit from the other', () => {
    const local = BASE.replace('First', 'Opening').replace(/\n$/, '');
    const remote = BASE.replace('Third', 'Closing');
    expect(mergePageText(BASE, local, remote)).toEqual({
      kind: 'merged',
      text: '# Setup\n\nOpening paragraph.\n\nSecond paragraph.\n\nClosing paragraph.',
    });
  });

  describe('frontmatter', () => {
    const fm = (yaml: string, body = BASE) => `---\n${yaml}---\n\n${body}`;
    const base = fm('description: Old words\nhidden: true\n');

    it('merges different keys changed on each side', () => {
      const local = fm('description: New words\nhidden: true\n');
      const remote = fm('description: Old words\nhidden: true\nicon: book\n');
      expect(mergePageText(base, local, remote, { frontmatter: true })).toEqual({
        kind: 'merged',
        text: fm('description: New words\nhidden: true\nicon: book\n'),
      });
    });

    it('merges a key removed on one side with a key and a body line changed on the other', () => {
      const local = fm('description: Old words\n', BASE.replace('First', 'Opening'));
      const remote = fm(
        'description: Remote words\nhidden: true\n',
        BASE.replace('Third', 'Closing'),
      );
      expect(mergePageText(base, local, remote, { frontmatter: true })).toEqual({
        kind: 'merged',
        text: fm(
          'description: Remote words\n',
          BASE.replace('First', 'Opening').replace('Third', 'Closing'),
        ),
      });
    });

    it("keeps the winning side's bytes when its keys are the result", () => {
      const local = `---\ndescription:   "Old words"\nhidden: true\n---\n\n${BASE.replace('First', 'Opening')}`;
      const remote = fm('description: Old words\nhidden: true\n', BASE.replace('Third', 'Closing'));
      const merged = mergePageText(base, local, remote, { frontmatter: true });
      expect(merged.kind === 'merged' && merged.text).toBe(
        `---\ndescription:   "Old words"\nhidden: true\n---\n\n${BASE.replace('First', 'Opening').replace('Third', 'Closing')}`,
      );
    });

    it('is a conflict when both sides set the same key differently', () => {
      const local = fm('description: Mine\nhidden: true\n');
      const remote = fm('description: Theirs\nhidden: true\n');
      expect(mergePageText(base, local, remote, { frontmatter: true })).toEqual({
        kind: 'conflict',
        reason: 'both sides changed the frontmatter key description',
      });
    });

    it('merges nested mappings key by key', () => {
      const nestedBase = fm(
        'layout:\n  title:\n    visible: true\n  outline:\n    visible: true\n',
      );
      const local = fm('layout:\n  title:\n    visible: false\n  outline:\n    visible: true\n');
      const remote = fm('layout:\n  title:\n    visible: true\n  outline:\n    visible: false\n');
      expect(mergePageText(nestedBase, local, remote, { frontmatter: true })).toEqual({
        kind: 'merged',
        text: fm('layout:\n  title:\n    visible: false\n  outline:\n    visible: false\n'),
      });
    });

    it('adds a block when only the remote side has one', () => {
      const local = BASE.replace('First', 'Opening');
      const remote = fm('description: Added\n');
      expect(mergePageText(BASE, local, remote, { frontmatter: true })).toEqual({
        kind: 'merged',
        text: fm('description: Added\n', local),
      });
    });

    it('falls back to a line merge when a side has invalid YAML', () => {
      const local = `---\ndescription: [unclosed\n---\n\n${BASE}`;
      const remote = fm('description: Old words\nhidden: true\n', BASE.replace('Third', 'Closing'));
      expect(mergePageText(base, local, remote, { frontmatter: true })).toEqual({
        kind: 'merged',
        text: `---\ndescription: [unclosed\n---\n\n${BASE.replace('Third', 'Closing')}`,
      });
      const theirs = fm('description: Theirs\nhidden: true\n');
      expect(mergePageText(base, local, theirs, { frontmatter: true })).toEqual({
        kind: 'conflict',
        reason: 'both sides edited lines 2–3',
      });
    });
  });
});
