import { parseDate, type CalendarDate } from '@internationalized/date';
import {
  DateField as AriaDateField,
  DateInput,
  DateSegment,
  FieldError,
  Label,
  Text,
  type DateFieldProps as AriaDateFieldProps,
} from 'react-aria-components';

export interface DateFieldProps extends Omit<AriaDateFieldProps<CalendarDate>, 'value' | 'onChange'> {
  label: string;
  description?: string;
  /** YYYY-MM-DD, as the API reads and writes dates; '' when empty. */
  value: string;
  onChange(value: string): void;
}

/** A date typed segment by segment in the member's locale order, read and given as the API's YYYY-MM-DD. */
export function DateField({ label, description, value, onChange, className, ...props }: DateFieldProps) {
  let parsed: CalendarDate | null = null;
  try {
    parsed = value ? parseDate(value) : null;
  } catch {
    parsed = null;
  }
  return (
    <AriaDateField
      {...props}
      value={parsed}
      onChange={(date) => onChange(date ? date.toString() : '')}
      className={['field', className].filter(Boolean).join(' ')}
    >
      <Label className="field-label">{label}</Label>
      <DateInput className="input date-input">
        {(segment) => <DateSegment segment={segment} className="date-segment" />}
      </DateInput>
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error" />
    </AriaDateField>
  );
}
