/**
 * The slug GitBook derives from a title, as far as its synced repositories show it:
 * `Editing & publishing documentation` → `editing-and-publishing-documentation`,
 * `How to use GitBook’s editor` → `how-to-use-gitbooks-editor`.
 *
 * Git Sync writes a group heading as `## Title` when the group's slug is this one, and pins any
 * other slug with an anchor (`## Get Started <a href="#getting-started" id="getting-started"></a>`);
 * the parser reads the anchor back or, without one, derives the slug from the title with this same
 * function, so the two always agree. Where it differs from GitBook's own derivation the only
 * effect is an anchor GitBook would not have needed.
 */
export function titleSlug(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, ' and ')
    .replace(/['’‘"“”]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}
