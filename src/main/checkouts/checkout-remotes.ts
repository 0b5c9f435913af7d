import type { OutboxRemote } from '../outbox/outbox-remote';
import type { RemoteWorkspace } from '../sync-ports';

/** Maps a key the engine syncs under (a checkout's, or a space's own id) to its space's id. */
export type SpaceIdOf = (key: string) => string;

/**
 * The engine's remote with a checkout's key turned into its space's id: the pull of a checkout
 * reads the change request's revision of that space.
 */
export function checkoutAwareWorkspace(
  remote: RemoteWorkspace,
  spaceIdOf: SpaceIdOf,
): RemoteWorkspace {
  const getGitConfig = remote.getGitConfig?.bind(remote);
  const putGitConfig = remote.putGitConfig?.bind(remote);
  return {
    whoAmI: () => remote.whoAmI(),
    listOrganizations: () => remote.listOrganizations(),
    listSpaces: (organizationId) => remote.listSpaces(organizationId),
    getRevision: (key, revisionId, knownPages) =>
      remote.getRevision(spaceIdOf(key), revisionId, knownPages),
    downloadFile: (file) => remote.downloadFile(file),
    ...(remote.streamFile !== undefined ? { streamFile: remote.streamFile.bind(remote) } : {}),
    ...(getGitConfig !== undefined
      ? { getGitConfig: (key: string) => getGitConfig(spaceIdOf(key)) }
      : {}),
    // `.gitbook.yaml` belongs to the space, not to a change request: a checkout reads it (so its
    // folder has the space's layout) but never replaces the space's from a review folder.
    ...(putGitConfig !== undefined
      ? {
          putGitConfig: async (key: string, text: string) => {
            if (spaceIdOf(key) === key) await putGitConfig(key, text);
          },
        }
      : {}),
  };
}

/** The outbox's remote with a checkout's key turned into its space's id (see above). */
export function checkoutAwareOutbox(remote: OutboxRemote, spaceIdOf: SpaceIdOf): OutboxRemote {
  const pages = remote.getChangeRequestPages?.bind(remote);
  const update = remote.updateChangeRequestFromMain?.bind(remote);
  return {
    createChangeRequest: (key, subject, options) =>
      remote.createChangeRequest(spaceIdOf(key), subject, options),
    getChangeRequest: (key, id) => remote.getChangeRequest(spaceIdOf(key), id),
    updateChangeRequestContent: (key, id, body, options) =>
      remote.updateChangeRequestContent(spaceIdOf(key), id, body, options),
    getPage: (key, id, pageId) => remote.getPage(spaceIdOf(key), id, pageId),
    getChangeRequestMarkdown: (key, id) => remote.getChangeRequestMarkdown(spaceIdOf(key), id),
    ...(pages !== undefined
      ? { getChangeRequestPages: (key, id) => pages(spaceIdOf(key), id) }
      : {}),
    ...(update !== undefined
      ? { updateChangeRequestFromMain: (key, id) => update(spaceIdOf(key), id) }
      : {}),
  };
}
