import { join } from 'node:path';
import { createQuireServices } from '../../src/main/cli/create-quire-services';
import { runQuireCli, type CliIo } from '../../src/main/cli/quire-cli';

export interface QuireRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `quire --home <dir>/<home> …` in this process over the real services (cache, engine, HTTP
 * client), `dir` as its working directory: the CLI end to end, without a child's start-up cost.
 */
export function inProcessQuire(dir: string, home = 'home') {
  return async (...args: string[]): Promise<QuireRun> => {
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      env: {},
      cwd: dir,
      readStdin: async () => '',
    };
    const code = await runQuireCli(['--home', join(dir, home), ...args], io, createQuireServices);
    return { code, stdout, stderr };
  };
}
