import { markdownToDocument } from './src/server/content/markdown-document';
import { extractLinks } from './src/server/content/markdown-links';
for (const [name, md] of [['quote', '>'.repeat(5000) + ' x'], ['list', Array.from({length: 3000}, (_, i) => ' '.repeat(i * 2) + '* a').join('\n')], ['emph', '*'.repeat(20000) + 'x' + '*'.repeat(20000)], ['brackets', '['.repeat(20000) + 'x](y)'], ['hints', '{% hint style="info" %}\n'.repeat(3000) + 'x\n' + '{% endhint %}\n'.repeat(3000)]] as const) {
  const t = Date.now();
  try { markdownToDocument(md); console.log(name, 'doc ok', Date.now() - t); } catch (e) { console.log(name, 'doc THROWS', (e as Error).name, (e as Error).message.slice(0, 80), Date.now() - t); }
  const t2 = Date.now();
  try { extractLinks(md); console.log(name, 'links ok', Date.now() - t2); } catch (e) { console.log(name, 'links THROWS', (e as Error).message.slice(0, 80)); }
}
