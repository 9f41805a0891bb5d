// Every UI test renders inside React StrictMode (STYLE.md 19): effects and listeners started
// twice show up as double calls.
import { StrictMode, type ReactElement } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

export function renderStrict(ui: ReactElement, options: Omit<RenderOptions, 'wrapper'> = {}) {
  const user = userEvent.setup();
  return { user, ...render(ui, { ...options, wrapper: StrictMode }) };
}
