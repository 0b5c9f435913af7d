export interface SwitchProps {
  checked: boolean;
  /** What the switch turns on, read by screen readers (and shown unless `hideLabel`). */
  label: string;
  hideLabel?: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}

/** An on/off switch: a button with role `switch`, so Space and Enter toggle it. */
export function Switch({ checked, label, hideLabel, disabled, onChange }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={hideLabel ? label : undefined}
      disabled={disabled}
      className="switch"
      onClick={() => onChange(!checked)}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {hideLabel ? null : <span>{label}</span>}
    </button>
  );
}
