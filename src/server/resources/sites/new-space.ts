import { RevisionStore } from '../../content/revision-store';
import type { Db } from '../../db/open-database';
import { buildPageTree } from '../../fixture/load-fixture';
import { newId } from '../../ids';
import { endPosition } from '../spaces/content-position';
import { SpaceQueries } from '../spaces/space-queries';
import type { SpaceRow } from '../spaces/space-serializer';

const MAX_SPACE_TITLE = 50;

/**
 * A space made for a new site (the published API's `spaces: "empty" | "sample"`): at the
 * organization's root, private like any new space, titled after the site. `sample` gives it a
 * welcome page so the site has something to show.
 */
export function createSiteSpace(
  db: Db,
  organizationId: string,
  siteTitle: string,
  kind: 'empty' | 'sample',
  at: string,
): SpaceRow {
  const spaces = new SpaceQueries(db);
  const store = new RevisionStore(db);
  const id = newId();
  spaces.insert({
    id,
    organization_id: organizationId,
    title: siteTitle.slice(0, MAX_SPACE_TITLE),
    emoji: '',
    visibility: 'private',
    edit_mode: 'live',
    parent_id: null,
    default_level: null,
    share_key: newId(),
    position: endPosition(db, organizationId, null),
    created_at: at,
    updated_at: at,
    deleted_at: null,
  });
  const pages =
    kind === 'sample'
      ? buildPageTree(
          [
            {
              title: 'Welcome',
              markdown: `# Welcome\n\nThis is the first page of ${siteTitle}. Edit it, or add pages next to it.\n`,
            },
          ],
          store,
          at,
        )
      : [];
  spaces.setRevision(id, store.create(id, { pages, files: [] }, [], 'edits', at));
  return spaces.get(id)!;
}
