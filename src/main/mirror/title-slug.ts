// Moved to src/shared/gitsync so the server's Git Sync import derives group slugs the same way.
export * from '../../shared/gitsync/title-slug';
