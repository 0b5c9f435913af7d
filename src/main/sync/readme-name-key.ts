/**
 * Sync-state key of the name a space's first page is mirrored under when its `.gitbook.yaml`
 * gives one (`structure.readme`, `intro.md`); README.md otherwise. Its own module: the pull
 * writes it and the push's classifier reads it (see adopt-gitbook-layout).
 */
export const readmeNameKey = (spaceId: string) => `gitbook-readme:${spaceId}`;
