import { createContext, useContext, type ReactNode } from 'react';

/** A chat or user the screen names by its Telegram id. */
export interface MetricsSubject {
  kind: 'chat' | 'user';
  id: string;
}

/**
 * What the Metrics screens show beside a chat's or user's id (its standing against the limits, say). The
 * feature that knows it is composed in by src/app, which provides this; without it nothing is shown.
 */
export const SubjectActionsContext = createContext<((subject: MetricsSubject) => ReactNode) | null>(null);

/** The provided actions of one chat or user, or nothing. */
export function SubjectActions(subject: MetricsSubject) {
  const render = useContext(SubjectActionsContext);
  return render ? render(subject) : null;
}
