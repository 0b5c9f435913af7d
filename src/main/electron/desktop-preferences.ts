import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The desktop app's own preferences besides launch at login (which lives with the OS). */
export interface DesktopPreferencesData {
  readonly notifications: boolean;
}

const DEFAULTS: DesktopPreferencesData = { notifications: true };

/**
 * `<userData>/desktop-settings.json`: this computer's app preferences, not the Quire home's
 * (the CLI has no notifications). A missing or unreadable file reads as the defaults.
 */
export class DesktopPreferences {
  private cached: DesktopPreferencesData | undefined;

  /** Without a file: kept in memory only. */
  constructor(private readonly file?: string) {}

  static in(userDataDir: string): DesktopPreferences {
    return new DesktopPreferences(path.join(userDataDir, 'desktop-settings.json'));
  }

  async read(): Promise<DesktopPreferencesData> {
    this.cached ??= await this.load();
    return this.cached;
  }

  /** The last value read or written; the defaults before the first read. */
  current(): DesktopPreferencesData {
    return this.cached ?? DEFAULTS;
  }

  async update(change: Partial<DesktopPreferencesData>): Promise<DesktopPreferencesData> {
    const next = { ...(await this.read()), ...change };
    if (this.file !== undefined) await this.save(this.file, next);
    this.cached = next;
    return next;
  }

  private async save(file: string, data: DesktopPreferencesData): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
  }

  private async load(): Promise<DesktopPreferencesData> {
    if (this.file === undefined) return DEFAULTS;
    const text = await readFile(this.file, 'utf8').catch(() => undefined);
    if (text === undefined) return DEFAULTS;
    try {
      const parsed: unknown = JSON.parse(text);
      const notifications =
        typeof parsed === 'object' && parsed !== null && 'notifications' in parsed
          ? parsed.notifications
          : undefined;
      return { notifications: typeof notifications === 'boolean' ? notifications : true };
    } catch {
      return DEFAULTS;
    }
  }
}
