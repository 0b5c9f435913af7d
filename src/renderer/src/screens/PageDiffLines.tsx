import type { DiffLine, DiffSegment } from '../../../shared/contract/change-requests';
import { plural } from '../model/format-time';
import { sideBySide, type DiffMode } from '../model/review-diff';

type Line = Exclude<DiffLine, { kind: 'skipped' }>;

const MARK: Record<Line['kind'], string> = { context: ' ', added: '+', removed: '−' };
const SPOKEN: Record<Line['kind'], string> = {
  context: '',
  added: 'added: ',
  removed: 'removed: ',
};

/** A page's line diff, unified or side by side; changed words highlighted, skipped lines folded. */
export function PageDiffLines({
  lines,
  mode,
  title,
}: {
  lines: readonly DiffLine[];
  mode: DiffMode;
  title: string;
}) {
  if (lines.length === 0) return <p className="muted">No text changes on this page.</p>;
  return (
    <div className="review-diff" tabIndex={0} role="region" aria-label={`Diff of ${title}`}>
      <table className={`review-diff-table ${mode}`}>
        <tbody>
          {mode === 'unified' ? <UnifiedRows lines={lines} /> : <SplitRows lines={lines} />}
        </tbody>
      </table>
    </div>
  );
}

function UnifiedRows({ lines }: { lines: readonly DiffLine[] }) {
  return lines.map((line, i) =>
    line.kind === 'skipped' ? (
      <Skipped key={i} count={line.count} span={4} />
    ) : (
      <tr key={i} className={line.kind}>
        <td className="line-no">{line.oldLine ?? ''}</td>
        <td className="line-no">{line.newLine ?? ''}</td>
        <td className="line-mark" aria-hidden="true">
          {MARK[line.kind]}
        </td>
        <td className="line-text">
          <Text line={line} />
        </td>
      </tr>
    ),
  );
}

function SplitRows({ lines }: { lines: readonly DiffLine[] }) {
  return sideBySide(lines).map((row, i) =>
    row.kind === 'skipped' ? (
      <Skipped key={i} count={row.count} span={4} />
    ) : (
      <tr key={i}>
        <Half line={row.left} side="old" />
        <Half line={row.right} side="new" />
      </tr>
    ),
  );
}

function Half({ line, side }: { line: Line | null; side: 'old' | 'new' }) {
  if (line === null)
    return (
      <>
        <td className="line-no empty" />
        <td className="line-text empty" />
      </>
    );
  return (
    <>
      <td className={`line-no ${line.kind}`}>{side === 'old' ? line.oldLine : line.newLine}</td>
      <td className={`line-text ${line.kind}`}>
        <Text line={line} />
      </td>
    </>
  );
}

function Text({ line }: { line: Line }) {
  return (
    <>
      {SPOKEN[line.kind] ? <span className="visually-hidden">{SPOKEN[line.kind]}</span> : null}
      {line.segments.map((segment: DiffSegment, i) =>
        segment.changed ? <mark key={i}>{segment.text}</mark> : <span key={i}>{segment.text}</span>,
      )}
    </>
  );
}

function Skipped({ count, span }: { count: number; span: number }) {
  return (
    <tr className="skipped">
      <td colSpan={span}>⋯ {plural(count, 'unchanged line')} ⋯</td>
    </tr>
  );
}
