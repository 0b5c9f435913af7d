/** What came of a review action the user asked for, as the screen shows it. */
export type ActionOutcome =
  | { kind: 'done'; message: string }
  /** A merge or an update that did not apply: the pages that changed on both sides. */
  | {
      kind: 'conflicts';
      message: string;
      pages: readonly { pageId: string | null; title: string; path: string }[];
    }
  | { kind: 'failed'; title: string; message: string };
