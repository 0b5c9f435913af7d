/**
 * Payloads in the style of the Markdown-XSS advisories of desktop note apps (Joplin, Obsidian
 * plugins, Typora, Mark Text, Zettlr…): each calls `__xss(<n>)` if it ever runs, in the page or
 * in a frame it manages to create.
 */
export const XSS_PAYLOADS: readonly string[] = [
  '<img src=x onerror="window.__xss(1)">',
  '[click me](javascript:window.__xss(2))',
  '<a href="javascript:window.__xss(3)">link</a>',
  '<svg onload="window.__xss(4)"><circle r="9"/></svg>',
  '<iframe src="javascript:parent.__xss(5)"></iframe>',
  '<iframe srcdoc="<script>parent.__xss(6)</script>"></iframe>',
  '[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoNyk8L3NjcmlwdD4=)',
  '<object data="data:text/html,<script>parent.__xss(8)</script>"></object>',
  '<script>window.__xss(9)</script>',
  '"><img src=x onerror=window.__xss(10)>',
  '<details open ontoggle="window.__xss(11)"><summary>x</summary></details>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss(12)>',
  '![img](x" onerror="window.__xss(13))',
  '<embed src="javascript:window.__xss(14)">',
  '<video><source onerror="window.__xss(15)"></video>',
];

/** The payload `i` (cycling), for filling every field that shows server text. */
export function payload(i: number): string {
  return XSS_PAYLOADS[i % XSS_PAYLOADS.length] ?? '';
}
