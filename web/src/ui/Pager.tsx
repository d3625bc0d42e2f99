import { useState } from 'react';
import { useT } from '../i18n/i18n.tsx';
import { Button } from './Button.tsx';

/** Previous/next for cursor-paged lists (the API gives next_cursor; the screen keeps the cursors behind it). */
export function Pager({
  page,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  isFetching,
}: {
  page: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
  isFetching?: boolean;
}) {
  const t = useT();
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <Button size="sm" onPress={onPrevious} isDisabled={!hasPrevious || isFetching}>
        {t('pager.previous')}
      </Button>
      <span className="muted" aria-live="polite">
        {t('pager.page', { page })}
      </span>
      <Button size="sm" onPress={onNext} isDisabled={!hasNext || isFetching}>
        {t('pager.next')}
      </Button>
    </nav>
  );
}

/** The cursors of the pages behind the current one; the first page has none. */
export function useCursorPages(resetKey: string) {
  const [state, setState] = useState<{ key: string; cursors: string[] }>({ key: resetKey, cursors: [] });
  const cursors = state.key === resetKey ? state.cursors : [];
  return {
    cursor: cursors[cursors.length - 1],
    page: cursors.length + 1,
    next: (cursor: string) => setState({ key: resetKey, cursors: [...cursors, cursor] }),
    previous: () => setState({ key: resetKey, cursors: cursors.slice(0, -1) }),
  };
}

/** The pager of a cursor list: the page it is on, and the next cursor the list's last answer gave. */
export function CursorPager({
  pages,
  list,
}: {
  pages: ReturnType<typeof useCursorPages>;
  list: { data?: { meta: { next_cursor?: string | null } }; isFetching: boolean };
}) {
  const next = list.data?.meta.next_cursor;
  return (
    <Pager
      page={pages.page}
      hasPrevious={pages.page > 1}
      hasNext={Boolean(next)}
      onPrevious={pages.previous}
      onNext={() => next && pages.next(next)}
      isFetching={list.isFetching}
    />
  );
}
