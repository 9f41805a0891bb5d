// The top bar's theme switch: one icon button whose name says what it will do.
import { Button } from 'primereact/button';
import { THEME_TEXTS } from '../../domain/theme';
import { toggleTheme, useTheme } from './store';

export function ThemeToggle() {
  const theme = useTheme();
  const label = theme === 'dark' ? THEME_TEXTS.toLight : THEME_TEXTS.toDark;
  return (
    <Button
      type="button"
      className="theme-toggle"
      icon={theme === 'dark' ? 'pi pi-sun' : 'pi pi-moon'}
      text
      rounded
      aria-label={label}
      title={label}
      onClick={() => void toggleTheme()}
    />
  );
}
