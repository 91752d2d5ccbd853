import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES } from '@lumi/contract';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';

/** The known values, and the one in the URL when it is another (an old link): it stays selectable. */
function withCurrent(known: readonly string[], current: string): readonly string[] {
  return current && !known.includes(current) ? [...known, current] : known;
}
import { FILTER_NAMES, type AuditFilters } from '../hooks/use-audit-filters';
import { describeAction, describeResourceType } from '../lib/audit-actions';

const NO_FILTERS: AuditFilters = { action: '', resource_type: '', user: '', from: '', to: '' };

interface AuditFiltersFormProps {
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}

/** Filters for the audit log; they take effect on Apply and live in the URL. */
export function AuditFiltersForm({ filters, onApply }: AuditFiltersFormProps) {
  const [draft, setDraft] = useState(filters);
  const [applied, setApplied] = useState(filters);
  const firstField = useRef<HTMLSelectElement>(null);

  // Follow the URL when it changes from outside (back button, a link).
  if (FILTER_NAMES.some((name) => filters[name] !== applied[name])) {
    setApplied(filters);
    setDraft(filters);
  }

  const set = (name: keyof AuditFilters) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [name]: event.target.value }));

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    onApply(draft);
  }

  function handleClear() {
    onApply(NO_FILTERS);
    // The Clear button goes away; keep keyboard focus in the form.
    firstField.current?.focus();
  }

  const isFiltered = FILTER_NAMES.some((name) => filters[name] !== '');
  const actions = withCurrent(AUDIT_ACTIONS, draft.action);
  const resourceTypes = withCurrent(AUDIT_RESOURCE_TYPES, draft.resource_type);

  return (
    <form
      aria-label="Filter audit logs"
      onSubmit={handleSubmit}
      className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(19rem,2fr)_minmax(0,1fr)_minmax(0,1fr)]"
    >
      <Field label="Action">
        <Select ref={firstField} value={draft.action} onChange={set('action')}>
          <option value="">All actions</option>
          {actions.map((action) => (
            <option key={action} value={action}>
              {describeAction(action)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Resource type">
        <Select value={draft.resource_type} onChange={set('resource_type')}>
          <option value="">All resource types</option>
          {resourceTypes.map((type) => (
            <option key={type} value={type}>
              {describeResourceType(type)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="User">
        <Input value={draft.user} onChange={set('user')} placeholder="Username" />
      </Field>
      <Field label="From">
        <Input type="date" value={draft.from} max={draft.to || undefined} onChange={set('from')} />
      </Field>
      <Field label="To">
        <Input type="date" value={draft.to} min={draft.from || undefined} onChange={set('to')} />
      </Field>
      <div className="flex gap-2">
        <Button type="submit">Apply</Button>
        {isFiltered && (
          <Button variant="secondary" onClick={handleClear}>
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}
