import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { toLocalInput } from '@/lib/format';
import {
  CUSTOM_RANGE,
  parseTimeRange,
  RELATIVE_RANGES,
  resolveTimeRange,
  validateCustomRange,
  type TimeRange,
} from '../lib/time-range';

interface CustomRangeValues {
  from: string;
  to: string;
}

/** From and to in local time, checked on Apply; the range changes only once it is valid. */
function CustomRangeForm({ range, onApply }: { range: TimeRange; onApply: (range: TimeRange) => void }) {
  const initial = resolveTimeRange(range, new Date());
  const form = useForm<CustomRangeValues>({
    defaultValues: { from: toLocalInput(initial.from), to: toLocalInput(initial.to) },
  });
  const { errors } = form.formState;
  const apply = form.handleSubmit((values) => {
    const checked = validateCustomRange(values.from, values.to);
    if (checked.ok) return onApply({ kind: 'custom', from: checked.from, to: checked.to });
    for (const name of ['from', 'to'] as const) {
      const message = checked.errors[name];
      if (message) form.setError(name, { message });
    }
  });
  return (
    <form
      aria-label="Custom range"
      noValidate
      onSubmit={(event) => void apply(event)}
      className="flex flex-wrap items-start gap-3"
    >
      <Field label="From" error={errors.from?.message} className="w-full sm:w-56">
        <Input type="datetime-local" {...form.register('from')} />
      </Field>
      <Field label="To" error={errors.to?.message} className="w-full sm:w-56">
        <Input type="datetime-local" {...form.register('to')} />
      </Field>
      <Button type="submit" variant="secondary" className="sm:mt-6">
        Apply
      </Button>
    </form>
  );
}

interface TimeRangePickerProps {
  range: TimeRange;
  onChange: (range: TimeRange) => void;
}

/**
 * The time range of the panels below it: one of the last 1 hour … 90 days, or a custom range. Choosing
 * "Custom range" opens the from/to form; the range changes when it is applied.
 */
export function TimeRangePicker({ range, onChange }: TimeRangePickerProps) {
  const [customOpen, setCustomOpen] = useState(range.kind === 'custom');
  const selected = customOpen ? CUSTOM_RANGE : range.kind === 'relative' ? range.value : CUSTOM_RANGE;
  return (
    <div className="flex flex-wrap items-start gap-3">
      <Field label="Time range" className="w-full sm:w-48">
        <Select
          value={selected}
          onChange={(event) => {
            const value = event.target.value;
            if (value === CUSTOM_RANGE) return setCustomOpen(true);
            setCustomOpen(false);
            onChange(parseTimeRange(value, null, null));
          }}
        >
          {RELATIVE_RANGES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
          <option value={CUSTOM_RANGE}>Custom range</option>
        </Select>
      </Field>
      {customOpen && <CustomRangeForm range={range} onApply={onChange} />}
    </div>
  );
}
