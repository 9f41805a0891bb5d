// The command palette in the admin portal's frame: its actor, wired to the search
// API and the router, the Ctrl/Cmd+K shortcut from anywhere, and the top bar's button. Mounted once
// by app-layout.tsx; the customer area (/my) has its own frame and no palette.
import { useEffect, useMemo } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { createSearchApi } from '../api/search';
import { menuFor } from '../domain/navigation';
import { menuPages, openableResults, paletteOptions } from '../domain/search';
import { commandPaletteMachine } from '../machines/command-palette';
import { CommandPalette, CommandPaletteButton, type PaletteStatus } from '../ui/palette/CommandPalette';
import { outcome } from './outcome';
import { useAppServices, usePageActor, usePermissions } from './services';

/** Ctrl+K, or Cmd+K on a Mac, with no other modifier. */
export const isPaletteShortcut = (event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>) =>
  (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';

const STATUSES = ['results', 'empty', 'failed'] as const;

/** The top bar's button and the palette's dialog (a portal: it is not drawn inside the top bar). */
export function CommandPaletteLauncher() {
  const { api } = useAppServices();
  const router = useRouter();
  const search = useMemo(() => createSearchApi(api.client), [api]);
  const permissions = usePermissions();
  // The pages of the menu the user sees (those their roles let them read); read when the frame
  // mounts, as roles change only across a new sign-in.
  const pages = menuPages(menuFor(permissions));
  const palette = usePageActor(
    commandPaletteMachine.provide({
      actors: {
        search: fromPromise(async ({ input, signal }) => {
          const answer = await outcome(() => search.search(input.query, signal));
          return answer.ok ? { ...answer, data: openableResults(answer.data, permissions) } : answer;
        }),
      },
      actions: { openOption: (_, url) => void router.navigate({ href: url }) },
    }),
    { input: { pages } },
  );

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      // The browser's own Ctrl+K (its search bar) would take the keystroke otherwise.
      event.preventDefault();
      palette.send({ type: 'user.open' });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [palette]);

  const visible = useSelector(palette, (s) => s.matches('open'));
  const input = useSelector(palette, (s) => s.context.input);
  const results = useSelector(palette, (s) => s.context.results);
  const menu = useSelector(palette, (s) => s.context.pages);
  const activeIndex = useSelector(palette, (s) => s.context.activeIndex);
  const error = useSelector(palette, (s) => s.context.error);
  const status = useSelector(palette, (s): PaletteStatus => (s.hasTag('busy') ? 'busy' : (STATUSES.find((state) => s.matches({ open: state })) ?? 'idle')));
  const options = useMemo(() => paletteOptions(input, results, menu), [input, results, menu]);

  return (
    <>
      <CommandPaletteButton onOpen={() => palette.send({ type: 'user.open' })} />
      <CommandPalette
        visible={visible}
        input={input}
        options={options}
        activeIndex={activeIndex}
        status={status}
        error={error}
        onType={(value) => palette.send({ type: 'user.type', value })}
        onMove={(to) => palette.send({ type: 'user.move', to })}
        onPoint={(index) => palette.send({ type: 'user.point', index })}
        onChoose={() => palette.send({ type: 'user.choose' })}
        onRetry={() => palette.send({ type: 'user.retry' })}
        onClose={() => palette.send({ type: 'user.close' })}
      />
    </>
  );
}
