import { useEffect, useState } from 'react';
import { Skeleton } from '@/components/ui/skeleton';

/**
 * The otpauth:// address as a QR code, drawn here in the browser (docs/operators/security.md,
 * "Two-factor sign-in": never by a third-party service, which would see the secret). The library loads only
 * when a setup starts.
 */
export function QrCode({ value, label }: { value: string; label: string }) {
  // What was drawn, and for which value: a new value shows the placeholder until its own code is drawn.
  const [drawn, setDrawn] = useState<{ value: string; svg: string | null } | null>(null);

  useEffect(() => {
    let current = true;
    import('qrcode')
      .then((qrcode) => qrcode.toString(value, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }))
      .then((svg) => current && setDrawn({ value, svg }))
      .catch(() => current && setDrawn({ value, svg: null }));
    return () => {
      current = false;
    };
  }, [value]);

  const mine = drawn?.value === value ? drawn : null;
  const svg = mine?.svg ?? null;
  const failed = mine !== null && mine.svg === null;

  if (failed) {
    return (
      <p role="alert" className="text-sm text-destructive">
        The QR code could not be drawn: type the secret into your app instead.
      </p>
    );
  }
  if (!svg) return <Skeleton role="status" aria-label="Drawing the QR code" className="size-48" />;
  // A white tile in both themes: authenticator apps read dark modules on a light quiet zone.
  return (
    <img
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt={label}
      width={192}
      height={192}
      className="size-48 rounded-md border bg-white"
    />
  );
}
