import type { ComponentProps } from 'react';
import { Select } from './input';

/** Every IANA time zone the browser knows, UTC first. */
const TIME_ZONES = [
  'UTC',
  ...(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []).filter(
    (zone) => zone !== 'UTC',
  ),
];

/** A choice of time zone, for a schedule or a recurring silence. */
export function TimeZoneSelect(props: Omit<ComponentProps<'select'>, 'children'>) {
  return (
    <Select {...props}>
      {TIME_ZONES.map((zone) => (
        <option key={zone} value={zone}>
          {zone}
        </option>
      ))}
    </Select>
  );
}
