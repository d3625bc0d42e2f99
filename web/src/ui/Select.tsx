import {
  Button as AriaButton,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  Text,
  type Key,
  type SelectProps as AriaSelectProps,
} from 'react-aria-components';

export interface SelectOption {
  id: string;
  label: string;
}

export interface SelectProps extends Omit<AriaSelectProps<SelectOption>, 'children' | 'items'> {
  label: string;
  options: SelectOption[];
  description?: string;
  hideLabel?: boolean;
}

/** A labelled single choice with a listbox popover (keyboard and screen-reader friendly, unlike a styled <select>). */
export function Select({ label, options, description, hideLabel, className, ...props }: SelectProps) {
  return (
    <AriaSelect {...props} className={['field', className].filter(Boolean).join(' ')}>
      <Label className={hideLabel ? 'visually-hidden' : 'field-label'}>{label}</Label>
      <AriaButton className="input select-trigger">
        <SelectValue className="select-value" />
        <span className="select-chevron" aria-hidden="true">
          <svg viewBox="0 0 20 20" width="16" height="16">
            <path d="m5.5 7.5 4.5 4.5 4.5-4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          </svg>
        </span>
      </AriaButton>
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error" />
      <Popover className="popover">
        <ListBox className="listbox" items={options}>
          {(option) => (
            <ListBoxItem id={option.id} className="listbox-item" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}

export type { Key };
