import type { Urls } from '../../http/urls';
import type { PageInfo, SectionHit } from './search-index';
import { INTRO_ANCHOR } from './page-sections';

/** A section's text in a result is cut here: results list places, they do not deliver pages. */
export const MAX_RESULT_BODY = 2000;

export interface SectionResult {
  id: string;
  title: string;
  path: string;
  body: string;
  score: number;
  resultType: 'page' | 'section';
  urls: { app: string };
}

export interface PageResult {
  id: string;
  title: string;
  description: string;
  path: string;
  score: number;
  rank: number;
  resultType: 'page' | 'section';
  sections: SectionResult[];
  ancestors: Array<{ title: string }>;
  urls: { app: string };
}

export interface SpaceResult {
  type: 'space';
  id: string;
  title: string;
  score: number;
  pages: PageResult[];
}

export interface SpaceInfo {
  title: string;
  revisionId: string;
}

/**
 * Groups ranked section hits by space, then page. Spaces and pages come in the order of their
 * best section; `rank` is a page's one-based position among all matching pages, so it survives
 * pagination by space. Scores are the negated bm25 (higher is better).
 */
export function groupHits(
  hits: readonly SectionHit[],
  spaces: ReadonlyMap<string, SpaceInfo>,
  pageInfo: (revisionId: string) => ReadonlyMap<string, PageInfo>,
  urls: Urls,
): SpaceResult[] {
  const bySpace = new Map<string, SpaceResult>();
  const byPage = new Map<string, PageResult>();
  let rank = 0;
  for (const hit of hits) {
    const space = spaces.get(hit.space_id);
    if (!space) continue;
    const score = Math.max(0, -hit.bm25);
    let spaceResult = bySpace.get(hit.space_id);
    if (!spaceResult) {
      spaceResult = { type: 'space', id: hit.space_id, title: space.title, score, pages: [] };
      bySpace.set(hit.space_id, spaceResult);
    }
    const pageKey = `${hit.space_id} ${hit.page_id}`;
    const pageUrl = `${urls.app(`/s/${hit.space_id}`)}/${hit.page_path}`;
    let pageResult = byPage.get(pageKey);
    if (!pageResult) {
      const info = pageInfo(space.revisionId).get(hit.page_id);
      rank += 1;
      pageResult = {
        id: hit.page_id,
        title: hit.page_title,
        description: info?.description ?? '',
        path: hit.page_path,
        score,
        rank,
        resultType: 'section',
        sections: [],
        ancestors: (info?.ancestors ?? []).map((title) => ({ title })),
        urls: { app: pageUrl },
      };
      byPage.set(pageKey, pageResult);
      spaceResult.pages.push(pageResult);
    }
    const anchor = hit.section_id.slice(hit.section_id.indexOf('#') + 1);
    const isIntro = anchor === INTRO_ANCHOR;
    // The intro's title is the page title: a match there is a match on the page itself.
    const titleMatched = hit.marked_title.includes('\u0001');
    if (isIntro && titleMatched) pageResult.resultType = 'page';
    pageResult.sections.push({
      id: hit.section_id,
      title: hit.title,
      path: isIntro ? hit.page_path : `${hit.page_path}#${anchor}`,
      body: hit.body.length > MAX_RESULT_BODY ? `${hit.body.slice(0, MAX_RESULT_BODY)}…` : hit.body,
      score,
      resultType: isIntro && titleMatched ? 'page' : 'section',
      urls: { app: isIntro ? pageUrl : `${pageUrl}#${anchor}` },
    });
  }
  return [...bySpace.values()];
}
