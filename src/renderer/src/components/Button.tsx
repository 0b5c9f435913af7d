import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'default' | 'primary' | 'danger';
}

/** A button of the design system; `type="button"` unless told, so it never submits by accident. */
export function Button({ variant = 'default', className, type, ...rest }: ButtonProps) {
  const classes = ['btn', variant === 'default' ? '' : `btn-${variant}`, className ?? '']
    .filter(Boolean)
    .join(' ');
  return <button type={type ?? 'button'} className={classes} {...rest} />;
}
