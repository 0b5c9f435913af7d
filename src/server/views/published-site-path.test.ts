import { describe, expect, it } from 'vitest';
import { resolvePublishedPath, type PublishedStructure } from './published-site-path';

const flat: PublishedStructure = {
  sections: [],
  siteSpaces: [
    { id: 'ss-a', sectionId: null, path: 'handbook', spaceId: 's-a' },
    { id: 'ss-b', sectionId: null, path: 'api', spaceId: 's-b' },
  ],
  defaultSectionId: null,
  defaultSiteSpaceId: 'ss-b',
};

const sectioned: PublishedStructure = {
  sections: [
    { id: 'sec-1', path: 'docs', defaultSiteSpaceId: null },
    { id: 'sec-2', path: 'blog', defaultSiteSpaceId: 'ss-y' },
  ],
  siteSpaces: [
    { id: 'ss-x', sectionId: 'sec-1', path: 'guide', spaceId: 's-x' },
    { id: 'ss-y', sectionId: 'sec-2', path: 'news', spaceId: 's-y' },
    { id: 'ss-z', sectionId: 'sec-2', path: 'notes', spaceId: 's-z' },
  ],
  defaultSectionId: 'sec-2',
  defaultSiteSpaceId: null,
};

describe('resolvePublishedPath', () => {
  it('takes the default site space, or the one a segment names, and leaves the page path', () => {
    expect(resolvePublishedPath(flat, [])).toMatchObject({
      siteSpace: { id: 'ss-b' },
      baseSegments: [],
      pagePath: '',
    });
    expect(resolvePublishedPath(flat, ['handbook', 'guides', 'setup'])).toMatchObject({
      siteSpace: { id: 'ss-a' },
      baseSegments: ['handbook'],
      pagePath: 'guides/setup',
    });
    // A segment that names no site space is a page of the default one.
    expect(resolvePublishedPath(flat, ['intro'])).toMatchObject({
      siteSpace: { id: 'ss-b' },
      pagePath: 'intro',
    });
  });

  it('picks the section first, then its site space; defaults at each level', () => {
    expect(resolvePublishedPath(sectioned, [])).toMatchObject({
      sectionId: 'sec-2',
      siteSpace: { id: 'ss-y' },
    });
    expect(resolvePublishedPath(sectioned, ['docs', 'page'])).toMatchObject({
      sectionId: 'sec-1',
      siteSpace: { id: 'ss-x' },
      baseSegments: ['docs'],
      pagePath: 'page',
    });
    expect(resolvePublishedPath(sectioned, ['blog', 'notes', 'a', 'b'])).toMatchObject({
      siteSpace: { id: 'ss-z' },
      baseSegments: ['blog', 'notes'],
      pagePath: 'a/b',
    });
  });

  it('finds nothing in a site (or section) without site spaces', () => {
    expect(resolvePublishedPath({ ...flat, siteSpaces: [] }, ['x'])).toBeUndefined();
  });
});
