import { useState } from 'react';
import type { PageDiff } from '../../../shared/contract/change-requests';
import { EmptyState } from '../components/EmptyState';
import { ErrorState } from '../components/ErrorState';
import { StatusPill } from '../components/StatusPill';
import { useCommand } from '../hooks/use-command';
import { useReviewAction } from '../hooks/use-review-action';
import { plural } from '../model/format-time';
import { saveDiffMode, savedDiffMode, windowStorage, type DiffMode } from '../model/review-diff';
import { REVIEW_EVENTS, pageBadges } from '../model/review-view';
import { ActionOutcomeView } from './ActionOutcomeView';
import { CommentThreads } from './CommentThreads';
import { PageDiffLines } from './PageDiffLines';
import { PagePdfButton } from './PagePdfButton';

const storage = windowStorage();

/** The change request's diff, computed offline: the changed pages, and one page's diff with its comments. */
export function ChangeRequestDiffView({ space, number }: { space: string; number: number }) {
  const { state, reload } = useCommand('changeRequestDiff', { space, number }, REVIEW_EVENTS);
  const [selected, setSelected] = useState<string | null>(null);
  const [mode, setMode] = useState<DiffMode>(() => savedDiffMode(storage));
  if (state.status === 'loading') return <p>Computing the diff…</p>;
  if (state.status === 'error')
    return (
      <ErrorState
        title="The diff could not be computed"
        message={state.error.message}
        onRetry={reload}
      />
    );
  const pages = state.data.pages;
  if (pages.length === 0)
    return <EmptyState title="No changes">This change request changes no page yet.</EmptyState>;
  const page = pages.find((p) => p.pageId === selected) ?? pages[0]!;
  const choose = (next: DiffMode) => {
    setMode(next);
    saveDiffMode(storage, next);
  };
  return (
    <div className="diff-layout">
      <nav className="diff-pages" aria-label={`Changed pages (${pages.length})`}>
        <h2>{plural(pages.length, 'changed page')}</h2>
        <ul className="plain-list">
          {pages.map((p) => (
            <li key={p.pageId}>
              <button
                type="button"
                className="page-button"
                aria-current={p.pageId === page.pageId ? 'true' : undefined}
                onClick={() => setSelected(p.pageId)}
              >
                <span className="page-title">{p.title || 'Untitled'}</span>
                <span className="row">
                  {pageBadges(p).map((b) => (
                    <StatusPill key={b.label} tone={b.tone}>
                      {b.label}
                    </StatusPill>
                  ))}
                  <span className="muted">
                    +{p.added} −{p.removed}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="diff-page stack">
        <PageHeader space={space} number={number} page={page} mode={mode} onMode={choose} />
        <div className="diff-with-comments">
          <PageDiffLines lines={page.lines} mode={mode} title={page.title || page.path} />
          <CommentThreads
            space={space}
            number={number}
            page={page.pageId}
            title="Comments on this page"
          />
        </div>
      </div>
    </div>
  );
}

function PageHeader({
  space,
  number,
  page,
  mode,
  onMode,
}: {
  space: string;
  number: number;
  page: PageDiff;
  mode: DiffMode;
  onMode: (mode: DiffMode) => void;
}) {
  const pdf = useReviewAction();
  return (
    <header className="stack">
      <div className="row spread">
        <h2>{page.title || 'Untitled'}</h2>
        <div className="row">
          <PagePdfButton
            space={space}
            number={number}
            pageId={page.pageId}
            title={page.title || page.path}
            action={pdf}
          />
          <div className="segmented" role="group" aria-label="Diff layout">
            <button type="button" aria-pressed={mode === 'split'} onClick={() => onMode('split')}>
              Side by side
            </button>
            <button
              type="button"
              aria-pressed={mode === 'unified'}
              onClick={() => onMode('unified')}
            >
              Unified
            </button>
          </div>
        </div>
      </div>
      {pdf.outcome ? <ActionOutcomeView outcome={pdf.outcome} onDismiss={pdf.dismiss} /> : null}
      <p className="mono muted">{page.path}</p>
      {page.renamedFrom !== null ? <p>Renamed from “{page.renamedFrom}”.</p> : null}
      {page.moved !== null ? (
        <p>
          Moved from {page.moved.fromParent ?? 'the top level'} to{' '}
          {page.moved.toParent ?? 'the top level'}.
        </p>
      ) : null}
      {page.fields.length > 0 ? <p>Also changed: {page.fields.join(', ')}.</p> : null}
    </header>
  );
}
