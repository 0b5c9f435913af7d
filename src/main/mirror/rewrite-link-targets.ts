// Moved to src/shared/gitsync so the server's Git Sync import rewrites links the same way.
export * from '../../shared/gitsync/rewrite-link-targets';
