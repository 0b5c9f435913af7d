import type { Urls } from '../../http/urls';

export interface UserRow {
  id: string;
  display_name: string;
  email: string;
  photo_url: string | null;
}

/** The embedded User object of the spec. */
export function serializeUser(row: UserRow, urls: Urls) {
  return {
    object: 'user' as const,
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    ...(row.photo_url ? { photoURL: row.photo_url } : {}),
    urls: { location: urls.api(`/users/${row.id}`) },
  };
}
