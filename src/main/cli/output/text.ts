import { terminalText } from '../terminal-text';

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function quote(text: string): string {
  return JSON.stringify(text);
}

export function oneLine(text: string): string {
  return terminalText(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}

export function scrubSecrets(text: string, secrets: ReadonlySet<string>): string {
  let result = text;
  for (const secret of secrets) if (secret !== '') result = result.split(secret).join('***');
  return result;
}
