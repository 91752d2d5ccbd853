import { MESSAGING_LIMITS, type ParseMode, type RenderResult } from '@lumi/contract';
import { cn } from '@/lib/cn';
import { TelegramMessage } from './telegram-message';
import { numberFormat } from '@/lib/intl';

const count = numberFormat('en-US');

/** A rendered message as Telegram would show it (or as raw text), with the characters Telegram counts. */
export function RenderedMessage({
  result,
  parseMode,
  raw = false,
  label = 'Rendered message',
}: {
  result: RenderResult;
  parseMode: ParseMode;
  raw?: boolean;
  label?: string;
}) {
  const tooLong = result.length > MESSAGING_LIMITS.telegramTextMax;
  return (
    <figure aria-label={label} className="space-y-1">
      <div className="rounded-2xl rounded-bl-sm border bg-card p-3 shadow-sm">
        {raw ? (
          <pre className="font-mono text-xs break-words whitespace-pre-wrap">{result.rendered}</pre>
        ) : (
          <TelegramMessage text={result.rendered} parseMode={parseMode} />
        )}
      </div>
      <figcaption
        className={cn(
          'text-right text-xs',
          tooLong ? 'font-medium text-destructive' : 'text-muted-foreground',
        )}
      >
        {count.format(result.length)} / {count.format(MESSAGING_LIMITS.telegramTextMax)} characters
        {tooLong && ' (too long for Telegram)'}
      </figcaption>
    </figure>
  );
}
