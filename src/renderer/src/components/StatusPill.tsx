import type { Tone } from '../model/tone';

/** A short state in words with a coloured dot; the words carry the meaning, not the colour. */
export function StatusPill({ tone, children }: { tone: Tone; children: string }) {
  return <span className={`pill pill-${tone}`}>{children}</span>;
}
