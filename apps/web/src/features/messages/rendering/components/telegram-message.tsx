import { parseMarkup, type ParseMode, type TelegramNode } from '@lumi/telegram-markup';
import { useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { formatRelativeTime } from '@/lib/relative-time';
import { safeLinkHref } from '../lib/link-href';

const isBlock = (node: TelegramNode | undefined) => node?.type === 'pre' || node?.type === 'blockquote';

/**
 * Code blocks and quotes stand on lines of their own, as in Telegram's apps, so the line break that
 * separates them from the text around them (or ends the last quoted line) is not shown a second time.
 */
function textAround(nodes: readonly TelegramNode[], index: number, text: string, inBlock: boolean): string {
  let value = text;
  if (isBlock(nodes[index - 1])) value = value.replace(/^\r?\n/, '');
  if (isBlock(nodes[index + 1]) || (inBlock && index === nodes.length - 1))
    value = value.replace(/\r?\n$/, '');
  return value;
}

function Spoiler({ children }: { children: ReactNode }) {
  const [revealed, setRevealed] = useState(false);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    setRevealed((value) => !value);
  };
  return (
    <span
      role="button"
      tabIndex={0}
      aria-pressed={revealed}
      title={revealed ? 'Spoiler' : 'Spoiler: press to reveal'}
      data-entity="spoiler"
      onClick={() => setRevealed((value) => !value)}
      onKeyDown={onKeyDown}
      className={cn('cursor-pointer rounded-sm bg-muted-foreground/20', !revealed && 'blur-[3px]')}
    >
      {children}
    </span>
  );
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, options);
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * A date_time as a reader's app shows it, in the reader's zone and language, per the Bot API's
 * date-time entity formatting: 'r' relative to now; otherwise the day of the week (w), the time, short
 * (t) or long (T), and the date, short (d) or long (D), in that order. Null for an empty format, which
 * shows the text as written.
 */
function formatEntityDate(unixTime: number, format: string): string | null {
  const date = new Date(unixTime * 1000);
  if (format === 'r') return formatRelativeTime(date.toISOString(), Date.now(), { seconds: true });
  const parts: Intl.DateTimeFormatOptions[] = [];
  if (format.includes('w')) parts.push({ weekday: 'long' });
  if (format.includes('t')) parts.push({ timeStyle: 'short' });
  else if (format.includes('T')) parts.push({ timeStyle: 'medium' });
  if (format.includes('d')) parts.push({ dateStyle: 'short' });
  else if (format.includes('D')) parts.push({ dateStyle: 'long' });
  return parts.length ? parts.map((options) => dateFormat(options).format(date)).join(', ') : null;
}

function EntityDate({
  unixTime,
  format,
  children,
}: {
  unixTime: number;
  format: string;
  children: ReactNode;
}) {
  const date = new Date(unixTime * 1000);
  const shown = formatEntityDate(unixTime, format);
  return (
    <time
      dateTime={date.toISOString()}
      title={dateFormat({ dateStyle: 'full', timeStyle: 'long' }).format(date)}
      data-entity="date_time"
      className="underline decoration-dotted underline-offset-2"
    >
      {shown ?? children}
    </time>
  );
}

/** An expandable quote: its first lines until the reader expands it, as Telegram's apps show it. */
function ExpandableQuote({ children }: { children: ReactNode }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  return (
    <blockquote className="my-1 border-l-4 border-primary/60 bg-primary/5 py-0.5 pl-2">
      <div id={id} className={cn(!expanded && 'line-clamp-3')}>
        {children}
      </div>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded((value) => !value)}
        className="text-xs text-primary underline-offset-2 hover:underline"
      >
        {expanded ? 'Show less' : 'Show more'}
      </button>
    </blockquote>
  );
}

function renderNodes(nodes: readonly TelegramNode[], inBlock: boolean): ReactNode[] {
  return nodes.map((node, index) => {
    if (node.type === 'text') return textAround(nodes, index, node.text, inBlock);
    const children = renderNodes(node.children, isBlock(node));
    switch (node.type) {
      case 'bold':
        return <strong key={index}>{children}</strong>;
      case 'italic':
        return <em key={index}>{children}</em>;
      case 'underline':
        return <u key={index}>{children}</u>;
      case 'strikethrough':
        return <s key={index}>{children}</s>;
      case 'spoiler':
        return <Spoiler key={index}>{children}</Spoiler>;
      case 'custom_emoji':
        return <span key={index}>{children}</span>;
      case 'code':
        return (
          <code key={index} className="rounded bg-muted px-1 font-mono text-[0.9em]">
            {children}
          </code>
        );
      case 'pre':
        return (
          // Focusable, so a wide code block can be scrolled with the keyboard.
          <pre
            key={index}
            tabIndex={0}
            data-language={node.language ?? undefined}
            className="my-1 overflow-x-auto rounded-md border bg-muted p-2 font-mono text-[0.85em] whitespace-pre"
          >
            {node.language && (
              <span className="mb-1 block text-xs text-muted-foreground">{node.language}</span>
            )}
            <code>{children}</code>
          </pre>
        );
      case 'blockquote':
        return node.expandable ? (
          <ExpandableQuote key={index}>{children}</ExpandableQuote>
        ) : (
          <blockquote key={index} className="my-1 border-l-4 border-primary/60 bg-primary/5 py-0.5 pl-2">
            {children}
          </blockquote>
        );
      case 'date_time':
        return (
          <EntityDate key={index} unixTime={node.unixTime} format={node.format}>
            {children}
          </EntityDate>
        );
      case 'text_mention':
        return (
          <span
            key={index}
            data-entity="text_mention"
            title={`Mention of user ${node.userId}`}
            className="text-primary"
          >
            {children}
          </span>
        );
      case 'link': {
        // The URL as Telegram writes it ('t.me/x' becomes 'http://t.me/x').
        const href = safeLinkHref(node.url);
        return href ? (
          <a
            key={index}
            href={href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="text-primary underline underline-offset-2"
          >
            {children}
          </a>
        ) : (
          <span key={index} className="text-primary">
            {children}
          </span>
        );
      }
    }
  });
}

interface TelegramMessageProps {
  text: string;
  parseMode: ParseMode;
  className?: string;
}

/**
 * A rendered message as Telegram shows it: the text is parsed into entities by the same parser the server
 * checks messages with, and built from React elements, never injected as HTML, so a template cannot put
 * markup or scripts into the console. Text Telegram would refuse is shown as it is.
 */
export function TelegramMessage({ text, parseMode, className }: TelegramMessageProps) {
  const parsed = useMemo(() => parseMarkup(parseMode, text), [text, parseMode]);
  return (
    <div className={cn('text-sm leading-relaxed break-words whitespace-pre-wrap', className)}>
      {parsed.error ? text : renderNodes(parsed.entities, false)}
    </div>
  );
}
