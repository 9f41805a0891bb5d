import { useCallback, useEffect, useState } from 'react';
import { SIDEBAR_SHORTCUT_KEY, parseSidebarCookie, sidebarCookie } from '../../domain/navigation';
import { useNarrowViewport } from '../common/useNarrowViewport';

export interface SidebarControls {
  /** The desktop sidebar's state, as exposed on its `data-state`. */
  state: 'expanded' | 'collapsed';
  /** Desktop: expanded (16rem) or collapsed to icons (3rem). Remembered in the sidebar_state cookie. */
  open: boolean;
  setOpen(open: boolean): void;
  /** Below 768 px the sidebar is a sheet, opened and closed separately from the desktop state. */
  isMobile: boolean;
  openMobile: boolean;
  setOpenMobile(open: boolean): void;
  /** Toggles the sheet on mobile, the desktop sidebar otherwise (also bound to Ctrl/Meta + B). */
  toggleSidebar(): void;
}

function readRememberedOpen(): boolean {
  if (typeof document === 'undefined') return true;
  return parseSidebarCookie(document.cookie) ?? true;
}

export function useSidebarState(): SidebarControls {
  const [open, setOpenState] = useState(readRememberedOpen);
  const [openMobile, setOpenMobile] = useState(false);
  const isMobile = useNarrowViewport();

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    document.cookie = sidebarCookie(value);
  }, []);

  const toggleSidebar = useCallback(() => {
    if (isMobile) setOpenMobile((current) => !current);
    else setOpen(!open);
  }, [isMobile, open, setOpen]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== SIDEBAR_SHORTCUT_KEY) return;
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      event.preventDefault();
      toggleSidebar();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggleSidebar]);

  return {
    state: open ? 'expanded' : 'collapsed',
    open,
    setOpen,
    isMobile,
    openMobile,
    setOpenMobile,
    toggleSidebar,
  };
}
