/**
 * Where a space's mirror stands: `disabled` (not synced), `pending` (enabled, never pulled),
 * `outdated` (the server announced a newer revision), `synced`, `error` (its last sync failed),
 * `removed` (gone from the server; its folder was cleaned up).
 */
export type SpaceState = 'disabled' | 'pending' | 'outdated' | 'synced' | 'error' | 'removed';
