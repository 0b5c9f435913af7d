import { Notification } from 'electron';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import { notificationsForChange, type NotificationScreen } from './notification-for-change';

/**
 * Shows the OS notifications for each status change (notificationsForChange decides which);
 * a click opens the screen where the user acts.
 */
export class DesktopNotifier {
  private previous: SyncStatusSnapshot | undefined;
  /** Kept until closed: a notification garbage-collected early loses its click handler. */
  private readonly shown = new Set<Notification>();

  constructor(private readonly open: (screen: NotificationScreen) => void) {}

  update(next: SyncStatusSnapshot): void {
    const notes = notificationsForChange(this.previous, next);
    this.previous = next;
    if (!Notification.isSupported()) return;
    for (const note of notes) {
      const notification = new Notification({ title: note.title, body: note.body });
      this.shown.add(notification);
      notification.on('click', () => this.open(note.screen));
      notification.on('close', () => this.shown.delete(notification));
      notification.show();
    }
  }
}
