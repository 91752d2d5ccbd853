import { Plus } from 'lucide-react';
import { Button, type ButtonProps } from '@/components/ui/button';

/** A button that creates something ("New Rule", "Add Channel"), marked with a plus. */
export function AddButton({ children, ...props }: ButtonProps) {
  return (
    <Button {...props}>
      <Plus aria-hidden />
      {children}
    </Button>
  );
}
