/** A determinate progress bar (`value` of `max`), or an indeterminate one when `max` is 0. */
export function ProgressBar({ label, value, max }: { label: string; value: number; max: number }) {
  const percent = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 100;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max > 0 ? max : undefined}
      aria-valuenow={max > 0 ? value : undefined}
    >
      <div className="progress-fill" style={{ width: `${percent}%` }} />
    </div>
  );
}
