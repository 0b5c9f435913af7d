/** The colour family of a state: ok (green), busy (accent), warn, danger, neutral. */
export type Tone = 'ok' | 'busy' | 'warn' | 'danger' | 'neutral';
