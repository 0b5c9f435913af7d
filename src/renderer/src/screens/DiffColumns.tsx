import type { ReactNode } from 'react';
import type { BaseLine, ConflictColumns, DiffLine } from '../model/conflict-diff';

const MARK_WORDS: Record<DiffLine['kind'], string> = {
  same: '',
  added: 'added: ',
  removed: 'removed: ',
};

/** Base, mine and theirs side by side; lines and words that differ from the base are marked. */
export function DiffColumns({ columns }: { columns: ConflictColumns }) {
  return (
    <div className="diff-columns">
      <Column title="Base (last synced)" missing="Unknown: this file was never synced.">
        {columns.base?.map((line, i) => (
          <BaseRow key={i} line={line} />
        ))}
      </Column>
      <Column title="Mine (this computer)" missing="Deleted on this computer.">
        {columns.mine?.map((line, i) => (
          <DiffRow key={i} line={line} />
        ))}
      </Column>
      <Column title="Theirs (server)" missing="Deleted on the server.">
        {columns.theirs?.map((line, i) => (
          <DiffRow key={i} line={line} />
        ))}
      </Column>
    </div>
  );
}

function Column({
  title,
  missing,
  children,
}: {
  title: string;
  missing: string;
  children: ReactNode[] | undefined;
}) {
  return (
    <section className="diff-column" aria-label={title}>
      <h3>{title}</h3>
      {children === undefined ? (
        <p className="muted diff-line">{missing}</p>
      ) : (
        <ol className="diff-lines" tabIndex={0} aria-label={`${title}, ${children.length} lines`}>
          {children}
        </ol>
      )}
    </section>
  );
}

function BaseRow({ line }: { line: BaseLine }) {
  return (
    <li className={`diff-line${line.changed ? ' removed' : ''}`}>
      {line.changed ? <span className="visually-hidden">changed: </span> : null}
      {line.text}
    </li>
  );
}

function DiffRow({ line }: { line: DiffLine }) {
  return (
    <li className={`diff-line ${line.kind}`}>
      {line.kind === 'same' ? null : (
        <span className="visually-hidden">{MARK_WORDS[line.kind]}</span>
      )}
      {line.segments.map((segment, i) =>
        segment.changed ? <mark key={i}>{segment.text}</mark> : <span key={i}>{segment.text}</span>,
      )}
    </li>
  );
}
