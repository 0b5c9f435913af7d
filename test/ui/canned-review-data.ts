import type {
  ChangeRequestDetail,
  ChangeRequestDiff,
  ChangeRequestSummary,
} from '../../src/shared/contract/change-requests';
import type { CommentThread, CommentView } from '../../src/shared/contract/review';
import { fullWorkspace, type CannedBridge, type Text } from './canned-quire-data';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const ADA = { id: 'u1', displayName: 'Ada' };

function summaries(t: Text): ChangeRequestSummary[] {
  const cr = (patch: Partial<ChangeRequestSummary>): ChangeRequestSummary => ({
    spaceId: 's1',
    space: t('Handbook'),
    organizationId: 'o1',
    organization: t('Acme'),
    id: 'cr-4',
    number: 4,
    subject: t('Fix the install guide'),
    status: 'open',
    author: { id: 'u2', displayName: t('Bo Reviewer') },
    createdAt: ago(600),
    updatedAt: ago(30),
    outdated: false,
    comments: 2,
    pinned: false,
    waitingForYou: null,
    url: null,
    ...patch,
  });
  return [
    cr({ waitingForYou: 'review-requested', outdated: true }),
    cr({
      id: 'cr-7',
      number: 7,
      subject: t('New onboarding'),
      author: ADA,
      waitingForYou: 'changes-requested',
      status: 'open',
      comments: 5,
    }),
    cr({
      id: 'cr-9',
      number: 9,
      subject: t('Draft: glossary'),
      author: ADA,
      status: 'draft',
      comments: 0,
      pinned: true,
      updatedAt: ago(2),
    }),
    cr({
      id: 'cr-2',
      spaceId: 's2',
      space: t('API reference'),
      number: 2,
      subject: t('Old rate limits'),
      status: 'merged',
      pinned: true,
      comments: 1,
      updatedAt: ago(3000),
    }),
  ];
}

function detail(t: Text): ChangeRequestDetail {
  return {
    ...summaries(t)[0]!,
    revision: 'rev-cr-4',
    baseRevision: 'rev-main-12',
    reviews: [
      {
        reviewer: { id: 'u3', displayName: t('Cy') },
        status: 'changes-requested',
        outdated: true,
        createdAt: ago(300),
      },
      {
        reviewer: { id: 'u3', displayName: t('Cy') },
        status: 'approved',
        outdated: false,
        createdAt: ago(60),
      },
    ],
    requestedReviewers: [
      { user: ADA, requestedAt: ago(200) },
      { user: { id: 'u4', displayName: t('Dee') }, requestedAt: ago(100) },
    ],
    contributors: [
      {
        user: { id: 'u2', displayName: t('Bo Reviewer') },
        actionType: 'edit',
        count: 6,
        updatedAt: ago(30),
      },
      {
        user: { id: 'u3', displayName: t('Cy') },
        actionType: 'comment',
        count: 2,
        updatedAt: ago(60),
      },
    ],
    fetchedAt: ago(1),
  };
}

function diff(t: Text): ChangeRequestDiff {
  const seg = (text: string, changed = false) => ({ text, changed });
  return {
    spaceId: 's1',
    number: 4,
    pages: [
      {
        pageId: 'p-install',
        type: 'document',
        title: t('Install'),
        path: t('getting-started/install.md'),
        status: 'modified',
        renamedFrom: t('Installation'),
        moved: null,
        fields: [],
        contentChanged: true,
        added: 2,
        removed: 1,
        lines: [
          { kind: 'context', oldLine: 1, newLine: 1, segments: [seg('# Install')] },
          { kind: 'skipped', count: 12 },
          {
            kind: 'removed',
            oldLine: 14,
            newLine: null,
            segments: [seg('Run '), seg('npm install', true), seg(' first.')],
          },
          {
            kind: 'added',
            oldLine: null,
            newLine: 14,
            segments: [seg('Run '), seg(t('pnpm install'), true), seg(' first.')],
          },
          {
            kind: 'added',
            oldLine: null,
            newLine: 15,
            segments: [seg(t('Then restart the shell.'), true)],
          },
          { kind: 'context', oldLine: 15, newLine: 16, segments: [seg('Done.')] },
        ],
      },
      {
        pageId: 'p-faq',
        type: 'document',
        title: t('FAQ'),
        path: t('faq.md'),
        status: 'added',
        renamedFrom: null,
        moved: { fromParent: null, toParent: t('Getting started') },
        fields: [],
        contentChanged: true,
        added: 2,
        removed: 0,
        lines: [
          { kind: 'added', oldLine: null, newLine: 1, segments: [seg('# FAQ', true)] },
          { kind: 'added', oldLine: null, newLine: 2, segments: [seg(t('Ask away.'), true)] },
        ],
      },
      {
        pageId: 'p-old',
        type: 'document',
        title: t('Legacy setup'),
        path: t('legacy.md'),
        status: 'removed',
        renamedFrom: null,
        moved: null,
        fields: ['description'],
        contentChanged: true,
        added: 0,
        removed: 1,
        lines: [{ kind: 'removed', oldLine: 1, newLine: null, segments: [seg('Legacy.', true)] }],
      },
    ],
  };
}

const MARKDOWN_BODY =
  'Please check **the commands** on `install.md`:\n\n- run `pnpm i`\n- see [the docs](https://docs.example.com/install)\n\n> quoted';

function comment(t: Text, id: string, patch: Partial<CommentView> = {}): CommentView {
  return {
    id,
    author: { id: 'u3', displayName: t('Cy') },
    body: t(MARKDOWN_BODY),
    postedAt: ago(50),
    editedAt: null,
    reactions: [{ emoji: '👍', count: 2, mine: true }],
    pending: null,
    problem: null,
    canEdit: false,
    ...patch,
  };
}

function threads(t: Text): CommentThread[] {
  return [
    {
      ...comment(t, 'c1'),
      page: { id: 'p-install', title: t('Install'), path: t('getting-started/install.md') },
      resolved: false,
      replies: [
        comment(t, 'r1', {
          author: ADA,
          body: t('Fixed, thanks.'),
          canEdit: true,
          pending: 'create',
          reactions: [],
        }),
        comment(t, 'r2', {
          author: ADA,
          body: t('This edit could not be sent.'),
          canEdit: true,
          pending: 'edit',
          problem: t('The comment was deleted on the server; your text is kept here.'),
          reactions: [],
        }),
      ],
    },
    {
      ...comment(t, 'c2', {
        author: ADA,
        body: t('Looks good overall.'),
        canEdit: true,
        reactions: [],
      }),
      page: null,
      resolved: true,
      replies: [],
    },
  ];
}

/** The full workspace, with change requests to review; every server text goes through `t`. */
export function reviewWorkspace(t: Text = (s) => s): CannedBridge {
  const base = fullWorkspace(t);
  const list = threads(t);
  return {
    results: {
      ...base.results,
      changeRequests: summaries(t),
      changeRequest: detail(t),
      changeRequestDiff: diff(t),
      pinChangeRequest: null,
      comments: list,
      postComment: list[1],
      replyToComment: list[0]!.replies[0],
      editComment: null,
      deleteComment: null,
      reactToComment: null,
      setCommentResolved: null,
      setChangeRequestSubject: 'sent',
      setChangeRequestStatus: 'sent',
      setReviewers: null,
      reviewChangeRequest: detail(t),
      updateChangeRequest: {
        result: 'conflicts',
        pages: [
          { pageId: 'p-install', title: t('Install'), path: t('getting-started/install.md') },
        ],
      },
      mergeChangeRequest: { result: 'merge', revision: 'rev-main-13' },
      exportChangeRequestPdf: { file: '/home/me/Downloads/cr-4.pdf', bytes: 20480 },
      checkoutChangeRequest: {
        spaceId: 's1',
        space: t('Handbook'),
        number: 4,
        subject: t('Fix the install guide'),
        status: 'open',
        folder: '/home/me/Quire/Acme/Handbook (change requests)/4 Fix the install guide',
        pending: 0,
        closedWithPendingEdits: false,
      },
      checkouts: [],
    },
    errors: {},
  };
}

/** Offline: the verdict and the merge are refused, the server refuses a rename. */
export function refusingReview(): CannedBridge {
  const canned = reviewWorkspace();
  const offline = {
    kind: 'offline' as const,
    message: 'Quire is offline: merging needs the server. Nothing was changed.',
  };
  canned.errors = {
    mergeChangeRequest: offline,
    reviewChangeRequest: {
      kind: 'offline',
      message: 'Quire is offline: a review needs the server.',
    },
    setChangeRequestSubject: { kind: 'refused', message: 'The subject is too long.', status: 422 },
  };
  return canned;
}

/** No change request mirrored; or the inbox failing to read. */
export function emptyReview(): CannedBridge {
  const canned = reviewWorkspace();
  canned.results.changeRequests = [];
  return canned;
}

export function failingReview(): CannedBridge {
  const canned = reviewWorkspace();
  canned.errors = {
    changeRequests: { kind: 'unexpected', message: 'The cache could not be opened.' },
    changeRequest: {
      kind: 'unknown-change-request',
      message: 'No change request #4 in Handbook.',
      space: 's1',
      number: 4,
    },
    comments: {
      kind: 'unavailable',
      message: 'Comments are not available yet.',
      command: 'comments',
    },
  };
  return canned;
}
