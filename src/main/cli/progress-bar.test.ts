import { describe, expect, it } from 'vitest';
import { ProgressBar, type ProgressStream } from './progress-bar';

function fakeStream(isTTY: boolean, columns = 80): ProgressStream & { output: string } {
  const stream = {
    isTTY,
    columns,
    output: '',
    write(chunk: string) {
      stream.output += chunk;
      return true;
    },
  };
  return stream;
}

/** The text of the last redraw, without the clear-line prefix. */
function lastLine(output: string): string {
  return output.split('\r\x1b[2K').at(-1) ?? '';
}

describe('ProgressBar', () => {
  it('writes nothing when the stream is not a terminal', () => {
    const stream = fakeStream(false);
    const bar = new ProgressBar(stream);
    bar.update({ phase: 'fetching', space: 's-1', done: 1, total: 2 });
    bar.update({ phase: 'done', done: 2, total: 2 });
    bar.clear();
    expect(stream.output).toBe('');
  });

  it('draws phase, space, bar and counts on one line, and clears it when done', () => {
    const stream = fakeStream(true);
    const bar = new ProgressBar(stream, { now: () => 0 });
    bar.update({ phase: 'fetching', space: 's-handbook', done: 5, total: 10 });
    expect(lastLine(stream.output)).toBe(
      `Fetching s-handbook [${'#'.repeat(15)}${'-'.repeat(15)}] 5/10 50%`,
    );
    expect(stream.output).not.toContain('\n');
    bar.update({ phase: 'done', done: 10, total: 10 });
    expect(stream.output.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('throttles redraws within a phase but always shows a new phase and the last step', () => {
    const stream = fakeStream(true);
    let now = 0;
    const bar = new ProgressBar(stream, { now: () => now, intervalMs: 100 });
    const draws = () => stream.output.split('\r\x1b[2K').length - 1;
    bar.update({ phase: 'fetching', space: 's', done: 1, total: 100 });
    for (let done = 2; done < 100; done++)
      bar.update({ phase: 'fetching', space: 's', done, total: 100 });
    expect(draws()).toBe(1);
    now = 150;
    bar.update({ phase: 'fetching', space: 's', done: 50, total: 100 });
    expect(draws()).toBe(2);
    bar.update({ phase: 'fetching', space: 's', done: 100, total: 100 });
    bar.update({ phase: 'writing', space: 's', done: 0, total: 3 });
    expect(draws()).toBe(4);
  });

  it('fits narrow terminals and long space names', () => {
    for (const columns of [20, 40, 60, 200]) {
      const bar = new ProgressBar(fakeStream(true, columns));
      const line = bar.render({ phase: 'writing', space: 'x'.repeat(300), done: 3, total: 7 });
      expect(Array.from(line).length).toBeLessThan(columns);
      expect(line).toMatch(/^Writing/);
    }
  });

  it('assumes 80 columns when a pseudo-terminal reports none', () => {
    const line = new ProgressBar(fakeStream(true, 0)).render({
      phase: 'fetching',
      space: 's-handbook',
      done: 1,
      total: 2,
    });
    expect(line).toMatch(/^Fetching s-handbook \[#+-+\] 1\/2 50%$/);
  });

  it('shows a count without a bar when the total is unknown, and titles from spaceLabel', () => {
    const bar = new ProgressBar(fakeStream(true), { spaceLabel: () => 'Handbook' });
    expect(bar.render({ phase: 'listing', done: 3, total: 0 })).toBe('Listing spaces 3');
    expect(bar.render({ phase: 'fetching', space: 's-1', done: 0, total: 2 })).toMatch(
      /^Fetching Handbook \[-+\] 0\/2 0%$/,
    );
  });

  it('cannot be made to emit escape sequences by a hostile space name', () => {
    const stream = fakeStream(true);
    const bar = new ProgressBar(stream);
    bar.update({ phase: 'fetching', space: 'evil\x1b]0;pwned\x07\x1b[2J', done: 1, total: 2 });
    const line = lastLine(stream.output);
    expect(Array.from(line).some((char) => char.charCodeAt(0) < 0x20)).toBe(false);
    expect(line).toContain('evil\uFFFD]0;pwned');
  });
});
