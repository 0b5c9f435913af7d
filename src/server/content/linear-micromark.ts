/**
 * Two of micromark's internal passes copy or splice the whole event list once per occurrence of
 * something, which makes ordinary large documents quadratic:
 *
 * - EditMap.consume copies every event however near the end its edits are, and runs each time a
 *   blockquote or list item closes and for every table and setext heading (8,000 short
 *   blockquotes took over a minute; a 9 MB page of ordinary lists and quotes 39–55 s);
 * - the text resolver merges each run of adjacent `data` events with a splice in the middle of
 *   the span's events (a paragraph of thousands of lines, or of escapes, took seconds per 100 KB).
 *
 * Importing this module patches both, once per process, with versions that give the same events
 * in one linear pass. They are patched on the very module instances micromark runs: EditMap is
 * imported by its package name (resolved as micromark resolves it), and the text initializers,
 * which micromark does not export, by their path inside the package — both builds of it, the
 * default one and the `development` condition's, since the condition decides which one parses.
 * Both packages are pinned to exact versions in package.json: these are their internals, and an
 * upgrade must be checked against bound-markdown.test.ts (same trees, patch in effect).
 * Hand-written because no library offers it: the fix belongs in micromark itself, and no other
 * parser gives remark the same trees.
 */
import { EditMap } from 'micromark-util-edit-map';
import * as developmentText from '../../../node_modules/micromark/dev/lib/initialize/text.js';
import * as defaultText from '../../../node_modules/micromark/lib/initialize/text.js';

/** A micromark event: `['enter' | 'exit', token, context]`. */
type Event = [string, { type: string; end: unknown }, unknown];
type Change = [at: number, remove: number, add: Event[]];
type Resolver = (events: Event[], context: unknown) => Event[];

const PATCHED = Symbol.for('quire.linearMicromark');

const editMap = EditMap.prototype as unknown as {
  consume(events: Event[]): void;
  [PATCHED]?: true;
};
if (!editMap[PATCHED]) {
  editMap[PATCHED] = true;
  editMap.consume = function consume(
    this: { map: Change[]; index: Map<number, Change> },
    events: Event[],
  ) {
    if (this.map.length === 0) return;
    this.map.sort((a, b) => a[0] - b[0]);
    applyChanges(events, this.map);
    this.map.length = 0;
    this.index.clear();
  };
}

for (const initializers of [defaultText, developmentText]) {
  for (const initializer of Object.values(initializers) as Array<{
    resolveAll?: Resolver;
    [PATCHED]?: true;
  }>) {
    const original = initializer.resolveAll;
    if (!original || initializer[PATCHED]) continue;
    initializer[PATCHED] = true;
    // With the runs already merged, the original finds nothing to splice and goes on to its
    // other work (line suffixes, hard breaks) unchanged.
    initializer.resolveAll = (events, context) => original(mergeDataRuns(events), context);
  }
}

/**
 * Applies sorted, distinct-index changes (`[at, remove, add]`) in place, rewriting only the
 * events from the first change on. As micromark's own version, a removal that runs past the next
 * change's index stops there.
 */
export function applyChanges(events: Event[], changes: readonly Change[]): void {
  const first = changes[0]![0];
  const tail = events.slice(first);
  events.length = first;
  let read = 0;
  changes.forEach(([at, remove, add], i) => {
    const next = changes[i + 1]?.[0] ?? Number.POSITIVE_INFINITY;
    for (let index = read; index < at - first; index++) events.push(tail[index]!);
    for (const event of add) events.push(event);
    read = Math.max(read, Math.min(at + remove, next) - first);
  });
  for (let index = read; index < tail.length; index++) events.push(tail[index]!);
}

/**
 * Merges each run of adjacent `data` tokens into its first token, in place, as micromark's text
 * resolver does (the first token's end becomes the run's end; the others' events go).
 */
export function mergeDataRuns(events: Event[]): Event[] {
  let write = 0;
  for (let read = 0; read < events.length;) {
    const event = events[read]!;
    if (event[1].type !== 'data' || read + 1 >= events.length) {
      events[write++] = event;
      read += 1;
      continue;
    }
    let last = read + 1;
    while (last + 1 < events.length && events[last + 1]![1].type === 'data') last += 1;
    if (last > read + 1) event[1].end = events[last]![1].end;
    events[write++] = event;
    events[write++] = events[read + 1]!;
    read = last + 1;
  }
  events.length = write;
  return events;
}
