import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

interface Notice {
  id: number;
  text: string;
}

const NoticeContext = createContext<(text: string) => void>(() => {});
const SHOWN_MS = 5000;

/**
 * Short confirmations ("Client Acme created"), announced politely to screen readers and shown for a few seconds.
 * The live region is always in the page, so an announcement is never lost to a region that appeared with it.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const next = useRef(1);
  const notify = useCallback((text: string) => {
    const id = next.current++;
    setNotices((list) => [...list.slice(-2), { id, text }]);
    setTimeout(() => setNotices((list) => list.filter((n) => n.id !== id)), SHOWN_MS);
  }, []);
  const value = useMemo(() => notify, [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((notice) => (
          <div key={notice.id} className="notice">
            {notice.text}
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export const useNotify = () => useContext(NoticeContext);
