import { Notification } from 'electron';
import type { ReviewNotification } from '../../shared/contract/review';
import type { SyncStatusSnapshot } from '../../shared/contract/sync-status';
import {
  notificationForReview,
  notificationsForChange,
  type DesktopNotification,
  type NotificationScreen,
} from './notification-for-change';

/**
 * Shows the OS notifications for each status change (notificationsForChange decides which);
 * a click opens the screen where the user acts.
 */
export class DesktopNotifier {
  private previous: SyncStatusSnapshot | undefined;
  /** Kept until closed: a notification garbage-collected early loses its click handler. */
  private readonly shown = new Set<Notification>();

  /** `enabled`: the user's setting, asked at each change (off: changes are tracked, not shown). */
  constructor(
    private readonly open: (screen: NotificationScreen) => void,
    private readonly enabled: () => boolean = () => true,
  ) {}

  update(next: SyncStatusSnapshot): void {
    const notes = notificationsForChange(this.previous, next);
    this.previous = next;
    this.show(notes);
  }

  /** Something new on the user's change requests (the engine's `notification` event). */
  review(note: ReviewNotification): void {
    this.show([notificationForReview(note)]);
  }

  private show(notes: readonly DesktopNotification[]): void {
    if (!this.enabled() || !Notification.isSupported()) return;
    for (const note of notes) {
      const notification = new Notification({ title: note.title, body: note.body });
      this.shown.add(notification);
      notification.on('click', () => this.open(note.screen));
      notification.on('close', () => this.shown.delete(notification));
      notification.show();
    }
  }
}
