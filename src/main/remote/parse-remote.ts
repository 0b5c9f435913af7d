import type {
  RemoteFile,
  RemoteOrganization,
  RemotePage,
  RemoteSpace,
  RemoteUser,
} from '../sync-ports';
import { PAGE_FLAG_FIELDS, PAGE_TEXT_FIELDS } from '../../shared/gitsync/page-fields';
import { RemoteProtocolError } from './errors';

/**
 * Reads API JSON into the engine's types. Only known fields are kept, so extra fields (GitBook adds
 * some in every release) are ignored; a missing required field is a RemoteProtocolError naming it,
 * never a crash further down.
 */

type Json = Record<string, unknown>;

function object(value: unknown, what: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RemoteProtocolError(`${what} is not an object`);
  }
  return value as Json;
}

function requiredString(json: Json, key: string, what: string): string {
  const value = json[key];
  if (typeof value !== 'string' || value === '') {
    throw new RemoteProtocolError(`${what} has no \`${key}\``);
  }
  return value;
}

function optionalString(json: Json, key: string): string | undefined {
  const value = json[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function optionalObject(json: Json, key: string): Record<string, unknown> | undefined {
  const value = json[key];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Copies the optional string and boolean fields that are present into `target`. */
function copyOptional<T extends object>(
  target: T,
  json: Json,
  strings: readonly (keyof T & string)[],
  booleans: readonly (keyof T & string)[] = [],
): T {
  const out = target as Record<string, unknown>;
  for (const key of strings) {
    const value = optionalString(json, key);
    if (value !== undefined) out[key] = value;
  }
  for (const key of booleans) {
    if (typeof json[key] === 'boolean') out[key] = json[key];
  }
  return target;
}

export function parseUser(value: unknown): RemoteUser {
  const json = object(value, 'The user');
  const id = requiredString(json, 'id', 'The user');
  const user: RemoteUser = { id, displayName: optionalString(json, 'displayName') ?? id };
  return copyOptional(user, json, ['email']);
}

export function parseOrganization(value: unknown): RemoteOrganization {
  const json = object(value, 'An organization');
  const id = requiredString(json, 'id', 'An organization');
  return { id, title: optionalString(json, 'title') ?? id };
}

/** A space; `organization` falls back to the organization it was listed under. */
export function parseSpace(value: unknown, organizationId: string): RemoteSpace {
  const json = object(value, 'A space');
  const id = requiredString(json, 'id', 'A space');
  const space: RemoteSpace = {
    id,
    organization: optionalString(json, 'organization') ?? organizationId,
    title: optionalString(json, 'title') ?? id,
    revision: requiredString(json, 'revision', `Space ${id}`),
  };
  return copyOptional(space, json, ['emoji', 'parent', 'updatedAt']);
}

/** Whether a listed space is in the trash (GitBook lists them with `deletedAt`). */
export function isDeletedSpace(value: unknown): boolean {
  return (
    value !== null && typeof value === 'object' && typeof (value as Json)['deletedAt'] === 'string'
  );
}

/**
 * The page's type: `type`, or the deprecated `kind` (sheet/group/link) of older servers. Computed
 * pages (generated from a source such as an OpenAPI spec) read as documents; so does an unknown
 * type, whose Markdown, if any, the server gives like a document's.
 */
function pageType(json: Json): RemotePage['type'] {
  const type = json['type'] ?? json['kind'];
  if (type === 'group' || type === 'link') return type;
  return 'document';
}

/** The URL a link page points to: `href`, else a `url` target. */
function linkHref(json: Json): string | undefined {
  const href = optionalString(json, 'href');
  if (href !== undefined) return href;
  const target = optionalObject(json, 'target');
  return target && target['kind'] === 'url' && typeof target['url'] === 'string'
    ? target['url']
    : undefined;
}

export function parsePage(value: unknown): RemotePage {
  const json = object(value, 'A page');
  const id = requiredString(json, 'id', 'A page');
  const type = pageType(json);
  const children = json['pages'];
  if (children !== undefined && !Array.isArray(children)) {
    throw new RemoteProtocolError(`Page ${id} has a \`pages\` that is not an array`);
  }
  const page: RemotePage = {
    id,
    type,
    title: typeof json['title'] === 'string' ? json['title'] : '',
    pages: type === 'link' ? [] : (children ?? []).map(parsePage),
  };
  copyOptional(
    page,
    json,
    ['slug', 'path', ...PAGE_TEXT_FIELDS, 'createdAt', 'updatedAt'],
    PAGE_FLAG_FIELDS,
  );
  const layout = optionalObject(json, 'layout');
  if (layout) page.layout = layout;
  const cover = optionalObject(json, 'cover');
  if (cover) page.cover = cover;
  if (type === 'link') {
    const href = linkHref(json);
    if (href !== undefined) page.href = href;
  }
  // An empty document has "" as its Markdown: that is content, not its absence.
  if (type === 'document' && typeof json['markdown'] === 'string') page.markdown = json['markdown'];
  return page;
}

export function parsePages(value: unknown, what: string): RemotePage[] {
  if (!Array.isArray(value)) throw new RemoteProtocolError(`${what} has no \`pages\` array`);
  return value.map(parsePage);
}

export function parseFile(value: unknown): RemoteFile {
  const json = object(value, 'A file');
  const id = requiredString(json, 'id', 'A file');
  const file: RemoteFile = {
    id,
    name: optionalString(json, 'name') ?? id,
    contentType: optionalString(json, 'contentType') ?? 'application/octet-stream',
    size: typeof json['size'] === 'number' && json['size'] >= 0 ? json['size'] : 0,
    downloadURL: requiredString(json, 'downloadURL', `File ${id}`),
  };
  const dimensions = optionalObject(json, 'dimensions');
  if (
    dimensions &&
    typeof dimensions['width'] === 'number' &&
    typeof dimensions['height'] === 'number'
  ) {
    file.dimensions = { width: dimensions['width'], height: dimensions['height'] };
  }
  return file;
}

/** Every page of a tree, depth first. */
export function* walkPages(pages: readonly RemotePage[]): Generator<RemotePage> {
  for (const page of pages) {
    yield page;
    yield* walkPages(page.pages);
  }
}
