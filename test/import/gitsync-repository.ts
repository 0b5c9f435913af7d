/**
 * A generated Git Sync repository exactly as Git Sync writes one (so a mirror of the imported
 * space can be compared byte for byte): groups, a README first page with children, five levels
 * of nesting, links to pages (with anchors) and folder links, images (one of `imageBytes`),
 * names with spaces and Unicode, and every kind of frontmatter the API reads.
 */
export function gitSyncRepository(imageBytes: number): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  files.set(
    'SUMMARY.md',
    [
      '# Table of contents',
      '',
      '* [Welcome](README.md)',
      '  * [First steps](getting-started/first-steps.md)',
      '  * [Café & crème](<getting-started/Café crème.md>)',
      '',
      '## Guides',
      '',
      '* [Level 1](guides/level-1/README.md)',
      '  * [Level 2](guides/level-1/level-2/README.md)',
      '    * [Level 3](guides/level-1/level-2/level-3/README.md)',
      '      * [Level 4](guides/level-1/level-2/level-3/level-4/README.md)',
      '        * [Level 5](guides/level-1/level-2/level-3/level-4/level-5.md)',
      '* [Hidden page](guides/hidden-page.md)',
      '',
      '## Über uns <a href="#about" id="about"></a>',
      '',
      '* [Team](about/team.md)',
      '* [GitBook](https://www.gitbook.com)',
      '',
      '***',
      '',
      '* [Changelog](changelog.md)',
      '',
    ].join('\n'),
  );
  files.set(
    'README.md',
    [
      '---',
      'description: Where it all starts.',
      'cover: .gitbook/assets/big.png',
      'coverY: 42',
      'layout:',
      '  cover:',
      '    visible: true',
      '    size: hero',
      '  title:',
      '    visible: true',
      '  description:',
      '    visible: false',
      '---',
      '',
      '# Welcome',
      '',
      'Read [the first steps](getting-started/first-steps.md#install) or the',
      '[guides](guides/level-1/) and [their fifth level](guides/level-1/level-2/level-3/level-4/level-5.md#end).',
      '',
      '![A big picture](.gitbook/assets/big.png)',
      '',
    ].join('\n'),
  );
  files.set(
    'getting-started/first-steps.md',
    '---\nicon: rocket\n---\n\n# First steps\n\n## Install\n\nBack to [the start](../).\n',
  );
  files.set(
    'getting-started/Café crème.md',
    '# Café & crème\n\n![Logo](<../.gitbook/assets/logo mark.png>)\n',
  );
  files.set('guides/level-1/README.md', '# Level 1\n\nSee [level 2](level-2/#top).\n');
  files.set('guides/level-1/level-2/README.md', '# Level 2\n');
  files.set('guides/level-1/level-2/level-3/README.md', '# Level 3\n');
  files.set('guides/level-1/level-2/level-3/level-4/README.md', '# Level 4\n\n[Up](../)\n');
  files.set(
    'guides/level-1/level-2/level-3/level-4/level-5.md',
    '# Level 5\n\nDeep down.\n\n## End\n',
  );
  files.set('guides/hidden-page.md', '---\nhidden: true\n---\n\n# Hidden page\n');
  files.set('about/team.md', '---\ndescription: Who we are\nemoji: 1f44b\n---\n\n# Team\n');
  files.set('changelog.md', '# Changelog\n\n* Imported from Git Sync.\n');
  files.set('.gitbook/assets/logo mark.png', pngOf(2048, 1));
  files.set('.gitbook/assets/big.png', pngOf(imageBytes, 2));
  return files;
}

/**
 * The same repository as a team keeps it when its docs live in a sub-folder: `.gitbook.yaml` with
 * `root: ./docs/`, the summary renamed `toc.md`, and `redirects` redirects (comments and blank
 * lines included, as a person writes the file, so it must come back byte for byte).
 */
export function gitSyncRepositoryWithConfig(
  imageBytes: number,
  redirects = 300,
): Map<string, string | Buffer> {
  const config = [
    '# Where Git Sync finds the docs',
    'root: ./docs/',
    '',
    'structure:',
    '  summary: toc.md',
    '',
    'redirects:',
    ...Array.from({ length: redirects }, (_, i) => `  old/page-${i}: changelog.md`),
    '',
  ];
  const files = new Map<string, string | Buffer>([['.gitbook.yaml', config.join('\n')]]);
  for (const [path, content] of gitSyncRepository(imageBytes)) {
    files.set(`docs/${path === 'SUMMARY.md' ? 'toc.md' : path}`, content);
  }
  return files;
}

/**
 * The same repository with its first page renamed as well: `.gitbook.yaml` gives `root: ./docs/`
 * and `structure: { readme: intro.md, summary: toc.md }`, so SUMMARY.md lists `intro.md` and a
 * page links to the first page by that file (`../intro.md`), as Git Sync writes such a space.
 */
export function gitSyncRepositoryWithReadme(imageBytes: number): Map<string, string | Buffer> {
  const config = [
    'root: ./docs/',
    'structure:',
    '  readme: intro.md',
    '  summary: toc.md',
    '',
  ].join('\n');
  const files = new Map<string, string | Buffer>([['.gitbook.yaml', config]]);
  for (const [path, content] of gitSyncRepository(imageBytes)) {
    if (path === 'SUMMARY.md') {
      files.set('docs/toc.md', String(content).replace('(README.md)', '(intro.md)'));
    } else if (path === 'README.md') files.set('docs/intro.md', content);
    else if (path === 'getting-started/first-steps.md') {
      files.set(`docs/${path}`, String(content).replace('](../)', '](../intro.md)'));
    } else files.set(`docs/${path}`, content);
  }
  return files;
}

/** A PNG header (1×1) followed by `size` bytes in all, deterministic per `seed`. */
export function pngOf(size: number, seed: number): Buffer {
  const header = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ', 'base64');
  const bytes = Buffer.alloc(Math.max(size, header.length));
  header.copy(bytes);
  let state = seed * 2654435761;
  for (let i = header.length; i < bytes.length; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}
