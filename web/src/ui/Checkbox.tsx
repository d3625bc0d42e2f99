import { Checkbox as AriaCheckbox, type CheckboxProps } from 'react-aria-components';

export function Checkbox({ children, ...props }: CheckboxProps & { children: string }) {
  return (
    <AriaCheckbox {...props} className="checkbox">
      {({ isSelected }) => (
        <>
          <span className="checkbox-box" aria-hidden="true">
            {isSelected && (
              <svg viewBox="0 0 16 16" width="12" height="12">
                <path d="m3.5 8.5 3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2" />
              </svg>
            )}
          </span>
          {children}
        </>
      )}
    </AriaCheckbox>
  );
}
