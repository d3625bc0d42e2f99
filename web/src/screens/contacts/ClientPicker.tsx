import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button as AriaButton,
  ComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  type Key,
} from 'react-aria-components';
import { useApi } from '../../api/session.tsx';
import { useT } from '../../i18n/i18n.tsx';
import { useDebounced } from '../../ui/useDebounced.ts';

/** Choose a client by typing part of its name (the API's name search, 20 at a time). */
export function ClientPicker({
  value,
  onChange,
  name,
  isRequired,
}: {
  value: number | null;
  onChange(id: number | null): void;
  name: string;
  isRequired?: boolean;
}) {
  const t = useT();
  const api = useApi();
  const [input, setInput] = useState('');
  const q = useDebounced(input.trim(), 250);
  const options = useQuery({
    queryKey: ['clients', 'pick', q],
    queryFn: () => api.clients.listPage({ ...(q ? { q } : {}), limit: 20, sort: 'name' }),
  });
  const items = (options.data?.data ?? []).map((c) => ({ id: c.id, name: c.name }));
  return (
    <ComboBox
      className="field"
      name={name}
      items={items}
      inputValue={input}
      onInputChange={setInput}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => onChange(key === null ? null : Number(key))}
      isRequired={isRequired}
      menuTrigger="focus"
      allowsEmptyCollection
    >
      <Label className="field-label">{t('contacts.client')}</Label>
      <div className="combo">
        <Input className="input" placeholder={t('contacts.clientPlaceholder')} />
        <AriaButton className="combo-button" aria-label={t('contacts.clientPlaceholder')}>
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            <path d="m5.5 7.5 4.5 4.5 4.5-4.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
          </svg>
        </AriaButton>
      </div>
      <FieldError className="field-error" />
      <Popover className="popover">
        <ListBox className="listbox">
          {(item: { id: number; name: string }) => (
            <ListBoxItem id={item.id} className="listbox-item" textValue={item.name}>
              {item.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
