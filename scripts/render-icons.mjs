// Renders the icons in resources/ from their SVG sources in resources/icon-src/ with Chromium
// (playwright-core), so the PNGs Electron and electron-builder need are reproducible:
//
//   resources/tray/<state>.png, <state>@2x.png          tray icons (16 and 32 px), Windows/Linux
//   resources/tray/<state>Template.png, …Template@2x.png macOS template images (black and alpha)
//   resources/icon.png                                   1024 px app icon (electron-builder makes
//                                                        the .icns and .ico from it)
//   resources/icons/<n>x<n>.png                          the Linux icon set
//
// Run `node scripts/render-icons.mjs` after editing an SVG and commit the PNGs. Chromium:
// CHROMIUM_PATH, else /usr/bin/chromium (`apt-get install -y chromium`).
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'resources', 'icon-src');
const TRAY_STATES = ['idle', 'syncing', 'paused', 'offline', 'error', 'conflicts'];
const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1024, height: 1024 } });

  /** One PNG of `svg` at `size` px, transparent around it; `template`: black, alpha kept. */
  async function render(svg, size, file, template = false) {
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    const filter = template ? 'filter: brightness(0);' : '';
    await page.setContent(
      `<body style="margin:0;background:transparent">` +
        `<img src="${src}" width="${size}" height="${size}" style="display:block;${filter}"></body>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await mkdir(dirname(file), { recursive: true });
    await page.screenshot({
      path: file,
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
  }

  for (const state of TRAY_STATES) {
    const svg = await readFile(join(sources, `tray-${state}.svg`), 'utf8');
    const out = join(root, 'resources', 'tray');
    await render(svg, 16, join(out, `${state}.png`));
    await render(svg, 32, join(out, `${state}@2x.png`));
    await render(svg, 16, join(out, `${state}Template.png`), true);
    await render(svg, 32, join(out, `${state}Template@2x.png`), true);
  }
  const app = await readFile(join(sources, 'app.svg'), 'utf8');
  await render(app, 1024, join(root, 'resources', 'icon.png'));
  for (const size of LINUX_SIZES) {
    await render(app, size, join(root, 'resources', 'icons', `${size}x${size}.png`));
  }
  console.log(`rendered ${TRAY_STATES.length * 4 + 1 + LINUX_SIZES.length} icons into resources/`);
} finally {
  await browser.close();
}
