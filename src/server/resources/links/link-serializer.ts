import type { LinkTarget, RevisionLink } from './revision-links';

/** Where the references of a list live: the space, and the change request when there is one. */
export interface ReferenceScope {
  organizationId: string;
  spaceId: string;
  changeRequestId?: string;
}

export interface ContentReference {
  kind: 'page' | 'file' | 'url';
  organization?: string;
  space?: string;
  versionContext?: { kind: 'change-request'; changeRequest: string };
  page?: string;
  file?: string;
  url?: string;
  path?: string;
  name?: string;
}

/** An absolute reference to a target; URLs are outside any space. */
export function serializeReference(target: LinkTarget, scope: ReferenceScope): ContentReference {
  if (target.kind === 'url') return { kind: 'url', url: target.url ?? '' };
  const reference: ContentReference = {
    kind: target.kind,
    organization: scope.organizationId,
    space: scope.spaceId,
  };
  if (scope.changeRequestId) {
    reference.versionContext = { kind: 'change-request', changeRequest: scope.changeRequestId };
  }
  if (target.page !== undefined) reference.page = target.page;
  if (target.file !== undefined) reference.file = target.file;
  if (target.path !== undefined) reference.path = target.path;
  if (target.name !== undefined) reference.name = target.name;
  return reference;
}

export function pageReference(pageId: string, scope: ReferenceScope): ContentReference {
  return serializeReference({ kind: 'page', page: pageId }, scope);
}

export function serializeLink(link: RevisionLink, scope: ReferenceScope) {
  return {
    status: link.status,
    relation: 'reference' as const,
    targetReference: serializeReference(link.target, scope),
    locationReferences: link.pages.map((page) => pageReference(page, scope)),
  };
}
