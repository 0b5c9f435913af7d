import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** The system's opener per platform: one program, the path its only argument. */
export function systemOpener(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'open';
  // Not `cmd /c start`: cmd would parse `&`, `^` and `%` in the path. Explorer takes it as is.
  if (platform === 'win32') return 'explorer.exe';
  return 'xdg-open';
}

/**
 * `quire ui`'s openPath port: opens a file or folder with the system's opener, as the desktop app
 * does with Electron's shell.openPath. The host runs on the user's own machine, so it opens there.
 * Spawned without a shell; the path must be absolute and exist (so it never reads as an option).
 */
export async function openWithSystem(
  target: string,
  platform: NodeJS.Platform = process.platform,
  run: (command: string, args: readonly string[]) => Promise<void> = spawnDetached,
): Promise<void> {
  if (!path.isAbsolute(target) || /[\0\r\n]/.test(target)) {
    throw new Error(`cannot open ${JSON.stringify(target)}: not an absolute path`);
  }
  const found = await stat(target).catch(() => undefined);
  if (found === undefined) throw new Error(`cannot open ${target}: it does not exist`);
  await run(systemOpener(platform), [target]);
}

/** Starts the opener and leaves it running; fails only when it cannot be started at all. */
function spawnDetached(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { detached: true, stdio: 'ignore', shell: false });
    child.once('error', (error) => reject(new Error(`cannot run ${command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
