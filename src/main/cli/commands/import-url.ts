import { importGitUrl } from '../../import/import-git-url';
import { CliError, EXIT_OK, EXIT_USAGE, type Run, type Values } from '../cli-run';
import { quote } from '../output/text';
import { terminalText } from '../terminal-text';

/** A repository URL rather than a folder. */
export const isRepositoryUrl = (arg: string): boolean => /^https?:\/\//i.test(arg);

/**
 * `quire import <url> --space <id> [--ref <ref>] [--merge]`: the server fetches the repository
 * itself (its `git/import` operation) and this follows it to the end. Credentials in the URL are
 * treated as a secret of the run: never printed.
 */
export async function importRepositoryUrl(run: Run, values: Values, url: string): Promise<number> {
  const spaceId = values.space;
  if (spaceId === undefined) {
    throw new CliError(
      'usage: quire import <url> --space <spaceId> [--ref <ref>] [--merge]',
      EXIT_USAGE,
    );
  }
  const parsed = new URL(url);
  if (parsed.password) run.secrets.add(decodeURIComponent(parsed.password));
  if (parsed.username) run.secrets.add(decodeURIComponent(parsed.username));
  parsed.username = '';
  parsed.password = '';
  const ref = values.ref ?? 'refs/heads/main';
  const { server, token } = await run.app.importTarget();
  const result = await importGitUrl({
    server,
    token,
    spaceId,
    url,
    ref,
    merge: values.merge === true,
  });
  const what = `${terminalText(parsed.href)} (${terminalText(ref)})`;
  if (result.state !== 'success') {
    throw new CliError(
      `the server could not import ${what}: ${terminalText(result.error ?? result.state)}`,
    );
  }
  run.out(
    values.merge
      ? `Imported ${what} into space ${quote(spaceId)}, merged.`
      : `Imported ${what} into space ${quote(spaceId)} as a change request, open for review.`,
  );
  return EXIT_OK;
}
