import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built renderer `quire ui` serves: `$QUIRE_RENDERER_DIR` when set, else `out/renderer` of the
 * checkout this module runs from (as TypeScript in src/main/ui-host, or bundled in out/cli).
 * Undefined when it was never built.
 */
export function findRendererDir(
  env: NodeJS.ProcessEnv,
  from: string = fileURLToPath(import.meta.url),
): string | undefined {
  const given = env['QUIRE_RENDERER_DIR'];
  if (given !== undefined && given !== '') {
    return existsSync(path.join(given, 'index.html')) ? path.resolve(given) : undefined;
  }
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'out', 'renderer');
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** What to do when findRendererDir finds nothing. */
export const RENDERER_MISSING =
  'the UI is not built: run `npm run build` (or `npx electron-vite build`) in the Quire checkout, ' +
  'or set QUIRE_RENDERER_DIR to a built renderer folder';
