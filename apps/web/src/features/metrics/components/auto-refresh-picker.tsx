import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { AUTO_REFRESH_OPTIONS, parseAutoRefresh, type AutoRefresh } from '../lib/auto-refresh';

/** How often the screen's panels ask again; they do not while the browser tab is hidden. */
export function AutoRefreshPicker({
  value,
  onChange,
}: {
  value: AutoRefresh;
  onChange: (value: AutoRefresh) => void;
}) {
  return (
    <Field label="Auto-refresh" className="w-full sm:w-40">
      <Select value={value} onChange={(event) => onChange(parseAutoRefresh(event.target.value))}>
        {AUTO_REFRESH_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}
