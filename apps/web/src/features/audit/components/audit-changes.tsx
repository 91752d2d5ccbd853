import { diffArrays, diffWords } from 'diff';
import type { ReactNode } from 'react';
import { fieldChanges, type FieldChange } from '../lib/field-changes';

/** Text longer than this (or on several lines) is shown as a word diff instead of old → new. */
const LONG_TEXT = 60;

type Primitive = string | number | boolean;

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isPrimitiveList(value: unknown): value is Primitive[] {
  return Array.isArray(value) && value.every(isPrimitive);
}

function isLongText(value: unknown): value is string {
  return typeof value === 'string' && (value.length > LONG_TEXT || value.includes('\n'));
}

/** How a single value reads: yes/no for flags, lists joined, other structures as compact JSON. */
function ValueText({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <em className="opacity-80">empty</em>;
  if (typeof value === 'boolean') return <>{value ? 'Yes' : 'No'}</>;
  if (isPrimitive(value)) return <>{String(value)}</>;
  if (isPrimitiveList(value)) {
    return value.length === 0 ? <em className="opacity-80">none</em> : <>{value.join(', ')}</>;
  }
  return <code className="text-xs break-all">{JSON.stringify(value)}</code>;
}

// Text stays in the foreground colour for contrast; the tint, the strike-through and the order carry the meaning.
const removedClass = 'rounded bg-destructive/15 px-1 line-through decoration-destructive';
const addedClass = 'rounded bg-success/20 px-1 no-underline';

function Removed({ children }: { children: ReactNode }) {
  return (
    <del className={removedClass}>
      <span className="sr-only">removed: </span>
      {children}
    </del>
  );
}

function Added({ children }: { children: ReactNode }) {
  return (
    <ins className={addedClass}>
      <span className="sr-only">added: </span>
      {children}
    </ins>
  );
}

/** A list such as roles: items kept, removed and added, computed with jsdiff's array diff. */
function ListDiff({ before, after }: { before: Primitive[]; after: Primitive[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {diffArrays(before, after).flatMap((part, index) =>
        part.value.map((item, position) => {
          const key = `${index}-${position}`;
          if (part.removed) return <Removed key={key}>{String(item)}</Removed>;
          if (part.added) return <Added key={key}>{String(item)}</Added>;
          return (
            <span key={key} className="rounded bg-muted px-1">
              {String(item)}
            </span>
          );
        }),
      )}
    </span>
  );
}

/** Long text: only the words that changed are marked (jsdiff word diff). */
function TextDiff({ before, after }: { before: string; after: string }) {
  return (
    <span className="whitespace-pre-wrap">
      {diffWords(before, after).map((part, index) => {
        if (part.removed) return <Removed key={index}>{part.value}</Removed>;
        if (part.added) return <Added key={index}>{part.value}</Added>;
        return <span key={index}>{part.value}</span>;
      })}
    </span>
  );
}

function ChangeView({ change: { before, after } }: { change: FieldChange }) {
  if (before === undefined) {
    return (
      <Added>
        <ValueText value={after} />
      </Added>
    );
  }
  if (after === undefined) {
    return (
      <Removed>
        <ValueText value={before} />
      </Removed>
    );
  }
  if (isPrimitiveList(before) && isPrimitiveList(after)) return <ListDiff before={before} after={after} />;
  if (typeof before === 'string' && typeof after === 'string' && (isLongText(before) || isLongText(after))) {
    return <TextDiff before={before} after={after} />;
  }
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <Removed>
        <ValueText value={before} />
      </Removed>
      <span aria-hidden>→</span>
      <Added>
        <ValueText value={after} />
      </Added>
    </span>
  );
}

interface AuditChangesProps {
  oldValue: unknown;
  newValue: unknown;
}

/** What an audit entry changed, field by field: field name, then old → new. */
export function AuditChanges({ oldValue, newValue }: AuditChangesProps) {
  if ((oldValue === null || oldValue === undefined) && (newValue === null || newValue === undefined)) {
    return <p className="text-sm text-muted-foreground">No details recorded.</p>;
  }
  const changes = fieldChanges(oldValue, newValue);
  if (changes.length === 0) return <p className="text-sm text-muted-foreground">No field changed.</p>;
  return (
    <dl className="divide-y rounded-md border text-sm">
      {changes.map((change) => (
        <div key={change.field} className="grid gap-1 px-3 py-2 sm:grid-cols-[10rem_1fr] sm:gap-3">
          <dt className="font-mono text-xs font-medium break-all sm:pt-0.5">{change.field}</dt>
          <dd className="min-w-0 break-words">
            <ChangeView change={change} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
