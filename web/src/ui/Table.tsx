import type { ReactNode } from 'react';
import {
  Cell as AriaCell,
  Column as AriaColumn,
  Row as AriaRow,
  Table as AriaTable,
  TableBody,
  TableHeader,
  type CellProps,
  type ColumnProps,
  type RowProps,
} from 'react-aria-components';

/**
 * A data table: a react-aria grid (arrow keys move between rows and cells, a row with `href` opens on Enter),
 * scrolling sideways on a narrow screen instead of squeezing its columns.
 */
export function Table({ label, children }: { label: string; children: [ReactNode, ReactNode] }) {
  return (
    <div className="table-wrap">
      <AriaTable aria-label={label} className="table">
        {children}
      </AriaTable>
    </div>
  );
}

export function Column({ className, ...props }: ColumnProps & { hideNarrow?: boolean }) {
  const { hideNarrow, ...rest } = props as ColumnProps & { hideNarrow?: boolean };
  return <AriaColumn {...rest} className={[hideNarrow ? 'hide-narrow' : '', className].filter(Boolean).join(' ')} />;
}

export function Row<T extends object>(props: RowProps<T>) {
  return <AriaRow {...props} className="table-row" />;
}

export function Cell({ hideNarrow, ...props }: CellProps & { hideNarrow?: boolean }) {
  return <AriaCell {...props} className={hideNarrow ? 'hide-narrow' : undefined} />;
}

// TableBody caches each row by its item: a row that shows anything besides its item (names looked up elsewhere,
// the language, who is signed in) must list those in `dependencies`, or it keeps what it showed first.
export { TableBody, TableHeader };
