import path from 'node:path';
import { Menu, Tray, nativeImage, type MenuItemConstructorOptions } from 'electron';
import type { DesktopStatus } from './desktop-status';
import {
  trayIconState,
  trayMenuModel,
  trayTooltip,
  type TrayAction,
  type TrayMenuItem,
} from './tray-menu-model';

/** The tray icon, its tooltip and menu, redrawn from each status (see trayMenuModel). */
export class QuireTray {
  private readonly tray: Tray;
  private lastMenu = '';

  constructor(
    /** resources/tray: `<state>.png` (and `@2x`), `<state>Template.png` on macOS. */
    private readonly iconDir: string,
    private readonly actions: Readonly<Record<TrayAction, () => void>>,
  ) {
    this.tray = new Tray(this.icon('idle'));
    // A click on the icon opens the window on Windows and Linux; macOS shows the menu.
    this.tray.on('click', () => actions['open-app']());
  }

  update(status: DesktopStatus): void {
    this.tray.setImage(this.icon(trayIconState(status)));
    this.tray.setToolTip(trayTooltip(status));
    const items = trayMenuModel(status);
    const key = JSON.stringify(items);
    if (key === this.lastMenu) return;
    this.lastMenu = key;
    this.tray.setContextMenu(Menu.buildFromTemplate(items.map((item) => this.menuItem(item))));
  }

  destroy(): void {
    this.tray.destroy();
  }

  private icon(state: string) {
    const name = process.platform === 'darwin' ? `${state}Template.png` : `${state}.png`;
    return nativeImage.createFromPath(path.join(this.iconDir, name));
  }

  private menuItem(item: TrayMenuItem): MenuItemConstructorOptions {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'status':
        return { label: item.label, enabled: false };
      case 'action':
        return {
          label: item.label,
          enabled: item.enabled,
          click: () => this.actions[item.action](),
          ...(item.checked === undefined ? {} : { type: 'checkbox', checked: item.checked }),
        };
    }
  }
}
