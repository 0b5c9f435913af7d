/** Builds the absolute `urls` fields from the configured public base URL. */
export class Urls {
  private base: string;
  constructor(publicUrl: string) {
    this.base = publicUrl.replace(/\/+$/, '');
  }
  /** Used once the listening port is known (`--port 0`). */
  rebase(publicUrl: string): void {
    this.base = publicUrl.replace(/\/+$/, '');
  }
  api(path: string): string {
    return `${this.base}/v1${path}`;
  }
  app(path: string): string {
    return `${this.base}/app${path}`;
  }
  published(path: string): string {
    return `${this.base}/published${path}`;
  }
  get root(): string {
    return this.base;
  }
}
