/**
 * Serialises frontmatter values exactly the way GitBook's Git Sync writes them, so a page
 * mirrored by Quire and the same page synced by GitBook are byte-identical.
 *
 * Git Sync's output is that of js-yaml 4's `dump` with its default options (`>-` folding at 80
 * columns minus the indentation, single quotes for strings YAML would read as something else,
 * plain scalars with commas, an undefined mapping value left out); the corpus test checks it
 * against every frontmatter block of GitBook's own synced docs repository. gray-matter bundles
 * js-yaml 3, whose output differs (it quotes commas), so js-yaml 4 is called directly.
 */
import yaml from 'js-yaml';

export type YamlValue =
  | string
  | number
  | boolean
  | null
  | Date
  | readonly YamlValue[]
  | { readonly [key: string]: YamlValue | undefined };

/** The YAML text of `value` (a mapping at the top level), ending with a newline. */
export function dumpYaml(value: YamlValue): string {
  return yaml.dump(value);
}
