import { atLeast, type Role } from '../../auth/roles';
import type { Urls } from '../../http/urls';
import type { ErrorList, OpenApiSpecRow, OpenApiVersionRow } from './openapi-queries';

const specPath = (spec: OpenApiSpecRow) =>
  `/orgs/${spec.organization_id}/openapi/${encodeURIComponent(spec.slug)}`;

/**
 * The OpenAPISpec resource as a member with `role` sees it: every member with a role views it;
 * editing takes the role that creates content (the organization's `createOpenAPISpec`).
 */
export function serializeOpenApiSpec(spec: OpenApiSpecRow, role: Role | null, urls: Urls) {
  const errors = spec.last_errors ? (JSON.parse(spec.last_errors) as ErrorList) : undefined;
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    createdAt: spec.created_at,
    updatedAt: spec.updated_at,
    slug: spec.slug,
    ...(spec.source_url !== null ? { sourceURL: spec.source_url } : {}),
    processingState: spec.processing_state,
    // Specifications are served to members only (no public link).
    visibility: 'private',
    ...(spec.last_version_id !== null ? { lastVersion: spec.last_version_id } : {}),
    ...(spec.last_processed_at !== null ? { lastProcessedAt: spec.last_processed_at } : {}),
    ...(spec.last_error_code !== null ? { lastProcessErrorCode: spec.last_error_code } : {}),
    ...(errors ? { lastProcessedErrors: errors.messages.map((message) => ({ message })) } : {}),
    lastProcessedErrorCount: errors?.count ?? 0,
    permissions: { view: atLeast(role, 'read'), edit: atLeast(role, 'create') },
    urls: {
      location: urls.api(specPath(spec)),
      app: urls.app(`/o/${spec.organization_id}/openapi/${encodeURIComponent(spec.slug)}`),
    },
  };
}

/** Where a version's entry file can be read: its source URL, or the API's raw content. */
export function versionUrl(spec: OpenApiSpecRow, version: OpenApiVersionRow, urls: Urls): string {
  return version.source_url ?? urls.api(`${specPath(spec)}/versions/${version.id}/content/raw`);
}

export function serializeOpenApiVersion(
  spec: OpenApiSpecRow,
  version: OpenApiVersionRow,
  urls: Urls,
) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.created_at,
    url: versionUrl(spec, version, urls),
    urls: { location: urls.api(`${specPath(spec)}/versions/${version.id}`) },
  };
}

/**
 * A version's content as JSON text: `filesystem` maps the entry file's name to its document
 * (stored as JSON text, spliced in unparsed), `url` is where the file can be read.
 */
export function versionContentJson(
  spec: OpenApiSpecRow,
  version: OpenApiVersionRow,
  document: string,
  urls: Urls,
): Buffer {
  const url = versionUrl(spec, version, urls);
  return Buffer.from(
    `{"filesystem":{${JSON.stringify(version.file_name)}:${document}},` +
      `"url":${JSON.stringify(url)},"urls":{"source":${JSON.stringify(url)},"public":null}}`,
  );
}
