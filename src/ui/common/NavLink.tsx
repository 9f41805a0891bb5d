import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';

/**
 * A plain left click (no modifier keys, not already handled) is navigation inside the app;
 * anything else (middle click, Ctrl/Meta/Shift click, a target) is left to the browser.
 */
export function isPlainLeftClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey &&
    (!target || target === '_self')
  );
}

export interface NavLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  url: string;
  onNavigate(url: string): void;
  children?: ReactNode;
}

/** A real `<a href>` that hands plain left clicks to `onNavigate` so the router can take them. */
export function NavLink({ url, onNavigate, onClick, children, ...rest }: NavLinkProps) {
  return (
    <a
      {...rest}
      href={url}
      onClick={(event) => {
        onClick?.(event);
        if (!isPlainLeftClick(event)) return;
        event.preventDefault();
        onNavigate(url);
      }}
    >
      {children}
    </a>
  );
}
