import { Component, type ReactNode } from 'react';
import { ErrorState } from '../ui/States.tsx';

/** The last resort: an error no screen handled shows in words instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <main className="centered-page">
        <ErrorState error={this.state.error} onRetry={() => window.location.reload()} />
      </main>
    );
  }
}
