import { Component, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** Spec section 8: the Overview's message when the page cannot load at all. */
export function DashboardError({ detail, onRetry }: { detail?: string; onRetry: () => void }) {
  return (
    <Alert variant="error" title="Error loading dashboard">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span>{detail ?? 'Check your connection and try again.'}</span>
        <Button variant="secondary" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    </Alert>
  );
}

/** Catches a dashboard that fails while rendering (or whose chart code cannot be downloaded). */
export class DashboardErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error('The dashboard failed to render', error);
  }

  override render() {
    if (this.state.failed) return <DashboardError onRetry={() => this.setState({ failed: false })} />;
    return this.props.children;
  }
}
