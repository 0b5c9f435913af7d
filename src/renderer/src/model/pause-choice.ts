export type PauseChoice = '30m' | '1h' | 'resume';

/** When a pause ends (ISO), or null for "until I resume". */
export function pauseUntil(choice: PauseChoice, now: Date): string | null {
  if (choice === 'resume') return null;
  const minutes = choice === '30m' ? 30 : 60;
  return new Date(now.getTime() + minutes * 60_000).toISOString();
}
