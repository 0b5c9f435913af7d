import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { quireHome, readQuireConfig, resolveQuireHomeDir } from '../config/quire-home';

/**
 * Why `folder` may already be the mirror of another Quire home, or undefined. Two homes syncing
 * one folder each take the other's files for local edits and push them again. Checked at login:
 * the default home (`QUIRE_HOME`, else ~/.quire) when it is not this one, then, for a home that
 * is new, a folder that already holds a mirror's layout (`<organization>/<space>/SUMMARY.md`).
 */
export async function otherMirrorWarning(options: {
  folder: string;
  homeRoot: string;
  /** This home had no configuration before this login. */
  newHome: boolean;
  env: NodeJS.ProcessEnv;
}): Promise<string | undefined> {
  const { folder, homeRoot } = options;
  const defaultRoot = resolveQuireHomeDir(undefined, options.env);
  if (defaultRoot !== homeRoot) {
    const other = await readQuireConfig(quireHome(defaultRoot)).catch(() => undefined);
    if (other?.folder === folder) {
      return (
        `the Quire home ${defaultRoot} already mirrors ${folder}: two homes syncing one folder ` +
        `push each other's files again; use that home (--home ${defaultRoot}) or another folder`
      );
    }
  }
  if (!options.newHome) return undefined;
  const mirrored = await mirroredSpaceFolder(folder);
  if (mirrored === undefined) return undefined;
  return (
    `${folder} already holds a mirror (${mirrored}), from another Quire home or an earlier one: ` +
    'stop any other home syncing it; the first sync here adopts the files that match the server'
  );
}

/** `<organization>/<space>` of the first folder that looks like a mirrored space, if any. */
async function mirroredSpaceFolder(folder: string): Promise<string | undefined> {
  for (const organization of await folders(folder)) {
    for (const space of await folders(path.join(folder, organization))) {
      const summary = await stat(path.join(folder, organization, space, 'SUMMARY.md')).catch(
        () => undefined,
      );
      if (summary?.isFile()) return `${organization}/${space}`;
    }
  }
  return undefined;
}

async function folders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}
