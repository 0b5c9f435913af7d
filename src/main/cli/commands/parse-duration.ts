/** `30m`, `2h`, `1d`, `45s` → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    match[2] as 's' | 'm' | 'h' | 'd'
  ];
  const ms = Number(match[1]) * unit;
  return ms > 0 ? ms : undefined;
}
