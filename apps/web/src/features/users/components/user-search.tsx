import { Search } from 'lucide-react';
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Input } from '@/components/ui/input';

const DEBOUNCE_MS = 300;

interface UserSearchProps {
  value: string;
  onSearch: (value: string) => void;
}

/** The search box: applies what was typed after a short pause, or at once on Enter. */
export function UserSearch({ value, onSearch }: UserSearchProps) {
  const [text, setText] = useState(value);
  const [appliedValue, setAppliedValue] = useState(value);
  const timer = useRef<number | undefined>(undefined);

  // Follow the URL when it changes from outside (back button, a link).
  if (value !== appliedValue) {
    setAppliedValue(value);
    setText(value);
  }

  useEffect(() => () => window.clearTimeout(timer.current), []);

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const next = event.target.value;
    setText(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => onSearch(next.trim()), DEBOUNCE_MS);
  }

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    window.clearTimeout(timer.current);
    onSearch(text.trim());
  }

  return (
    <form role="search" onSubmit={handleSubmit} className="relative w-full sm:max-w-sm">
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        type="search"
        aria-label="Search users"
        placeholder="Search users..."
        value={text}
        onChange={handleChange}
        className="pl-9"
      />
    </form>
  );
}
