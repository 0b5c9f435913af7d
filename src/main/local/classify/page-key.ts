/** A key for a page of the desired tree: a page id, or a new page's file. */
export type Key = string;

const NEW = '\u0000new:';

export const newKey = (path: string): Key => `${NEW}${path}`;
export const isNewKey = (key: Key): boolean => key.startsWith(NEW);
export const pathOfNewKey = (key: Key): string => key.slice(NEW.length);
