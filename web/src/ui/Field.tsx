import type { ReactNode } from 'react';
import {
  FieldError,
  Input,
  Label,
  SearchField as AriaSearchField,
  Text,
  TextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
  type SearchFieldProps as AriaSearchFieldProps,
} from 'react-aria-components';

export interface TextFieldProps extends AriaTextFieldProps {
  label: string;
  description?: ReactNode;
  placeholder?: string;
  multiline?: boolean;
}

/**
 * A labelled text input. Its error comes from the form's validationErrors under the same `name` (the API's
 * error for that field, see api/errors.ts) or from the browser's own checks (required, type=email).
 */
export function TextField({ label, description, placeholder, multiline, className, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} className={['field', className].filter(Boolean).join(' ')}>
      <Label className="field-label">{label}</Label>
      {multiline ? (
        <TextArea className="input textarea" placeholder={placeholder} />
      ) : (
        <Input className="input" placeholder={placeholder} />
      )}
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error" />
    </AriaTextField>
  );
}

export interface SearchFieldProps extends AriaSearchFieldProps {
  label: string;
  placeholder?: string;
}

export function SearchField({ label, placeholder, className, ...props }: SearchFieldProps) {
  return (
    <AriaSearchField {...props} className={['field search-field', className].filter(Boolean).join(' ')}>
      <Label className="visually-hidden">{label}</Label>
      <span className="search-icon" aria-hidden="true">
        <svg viewBox="0 0 20 20" width="16" height="16">
          <path
            d="M8.5 3a5.5 5.5 0 0 1 4.38 8.82l3.65 3.65-1.06 1.06-3.65-3.65A5.5 5.5 0 1 1 8.5 3Zm0 1.5a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z"
            fill="currentColor"
          />
        </svg>
      </span>
      <Input className="input" placeholder={placeholder} />
    </AriaSearchField>
  );
}
