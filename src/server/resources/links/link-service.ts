import { RevisionStore } from '../../content/revision-store';
import type { RevisionTree, StoredPage } from '../../content/revision-tree';
import { notFound } from '../../http/api-error';
import type { ServerContext } from '../../server-context';
import { BoundedCache } from './bounded-cache';
import { LinkQueries } from './link-queries';
import { resolveRevisionLinks, type RevisionLink } from './revision-links';

/** Resolved link lists kept per revision (a revision's links never change). */
const REVISION_CACHE_ENTRIES = 64;

export interface LinkStats {
  total: number;
  broken: { total: number; changeRequest: number };
}

/**
 * Link lists of revisions, computed from the pages' Markdown once per revision and kept in
 * memory: revisions are immutable, so repeated reads never parse again.
 */
export class LinkService {
  private readonly queries: LinkQueries;
  private readonly revisions: RevisionStore;
  private readonly byRevision = new BoundedCache<RevisionLinks>(REVISION_CACHE_ENTRIES);

  constructor(private readonly ctx: ServerContext) {
    this.queries = new LinkQueries(ctx.db);
    this.revisions = new RevisionStore(ctx.db);
  }

  liveRevision(spaceId: string): string {
    const revision = this.queries.liveRevision(spaceId);
    if (!revision) throw notFound(`Space ${spaceId}`);
    return revision;
  }

  /**
   * The links of a revision (404 when it is missing, which only a corrupt database allows). The
   * bodies are parsed on the worker threads (and kept per body); only resolving happens here.
   */
  async ofRevision(revisionId: string): Promise<RevisionLinks> {
    // The in-app status depends on the server's public origin, which a test server learns late.
    const origin = this.ctx.urls.root;
    const key = `${revisionId} ${origin}`;
    const cached = this.byRevision.peek(key);
    if (cached) return cached;
    const tree = this.revisions.tree(revisionId);
    if (!tree) throw notFound(`Revision ${revisionId}`);
    const bodies = this.queries.bodies(bodyHashes(tree.pages));
    const parsed = await this.ctx.markdown.links(
      [...bodies].map(([hash, markdown]) => ({ key: hash, markdown, label: `a page's body` })),
    );
    const links = resolveRevisionLinks(tree, {
      serverOrigin: origin,
      body: (hash) => bodies.get(hash),
      linksOf: (hash) => parsed.get(hash) ?? [],
    });
    const revisionLinks = new RevisionLinks(tree, links);
    this.byRevision.set(key, revisionLinks);
    return revisionLinks;
  }

  /**
   * Broken links in change requests: for each draft or open change request of the space, the
   * broken targets of its current revision, summed.
   */
  async brokenInChangeRequests(spaceId: string): Promise<number> {
    let total = 0;
    for (const revisionId of this.queries.activeChangeRequestRevisions(spaceId)) {
      total += (await this.ofRevision(revisionId)).brokenCount;
    }
    return total;
  }
}

/** One revision's tree and links, with the lookups the routes need. */
export class RevisionLinks {
  readonly brokenCount: number;

  constructor(
    readonly tree: RevisionTree,
    readonly links: readonly RevisionLink[],
  ) {
    this.brokenCount = links.filter((link) => link.status === 'broken').length;
  }

  hasPage(pageId: string): boolean {
    return findPageId(this.tree.pages, pageId);
  }

  hasFile(fileId: string): boolean {
    return this.tree.files.some((file) => file.id === fileId);
  }

  /** The links written in one page, each listing only that page as its location. */
  ofPage(pageId: string): RevisionLink[] {
    return this.links
      .filter((link) => link.pages.includes(pageId))
      .map((link) => ({ ...link, pages: [pageId] }));
  }

  /** Ids of the pages linking to a file (sorted, for stable pagination). */
  backlinksOfFile(fileId: string): string[] {
    const link = this.links.find(
      (candidate) => candidate.target.kind === 'file' && candidate.target.file === fileId,
    );
    return link ? [...link.pages].sort() : [];
  }
}

function bodyHashes(pages: readonly StoredPage[], into = new Set<string>()): string[] {
  for (const page of pages) {
    if (page.body) into.add(page.body);
    bodyHashes(page.pages, into);
  }
  return [...into];
}

function findPageId(pages: readonly StoredPage[], pageId: string): boolean {
  return pages.some((page) => page.id === pageId || findPageId(page.pages, pageId));
}

/** `stats` of a link list: computed over the whole list, whatever `status` filter is applied. */
export function linkStats(
  links: readonly RevisionLink[],
  brokenInChangeRequests: number,
): LinkStats {
  return {
    total: links.length,
    broken: {
      total: links.filter((link) => link.status === 'broken').length,
      changeRequest: brokenInChangeRequests,
    },
  };
}
