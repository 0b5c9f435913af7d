import { ArchiveEntryError } from './archive-limits';

/**
 * An archive entry's name → the clean relative POSIX path it is extracted to. Refused (naming the
 * entry): absolute paths and drive letters, `..` segments, backslashes, control characters and
 * empty names. `./` prefixes and `.` segments are dropped; a trailing `/` marks a folder.
 */
export function checkEntryPath(name: string): string {
  if (name === '' || hasControl(name)) {
    throw new ArchiveEntryError(name, 'has an empty name or control characters');
  }
  if (name.includes('\\')) throw new ArchiveEntryError(name, 'holds a backslash');
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    throw new ArchiveEntryError(name, 'is an absolute path');
  }
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new ArchiveEntryError(name, 'climbs out with ".."');
  if (segments.length === 0) throw new ArchiveEntryError(name, 'names no file');
  return segments.join('/');
}

/** Case- and Unicode-insensitive key: two entries with the same key clash on most file systems. */
export function pathFoldKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

function hasControl(name: string): boolean {
  for (let i = 0; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
