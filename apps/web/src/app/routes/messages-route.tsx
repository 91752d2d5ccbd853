import { MessagesPage } from '@/features/messages/components/messages-page';

/** /messages: the message templates, their channels and topics. */
export function MessagesRoute() {
  return <MessagesPage />;
}
