/** A decorative spinner; the text next to it (or the busy region) says what is loading. */
export function Spinner({ size = 'md' }: { size?: 'sm' | 'md' }) {
  return <span className={`spinner spinner-${size}`} aria-hidden="true" />;
}
