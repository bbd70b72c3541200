import { useCallback, useEffect, useRef, useState } from 'react';

const TOLERANCE_PX = 4;

/**
 * True once the element was scrolled to its end (or needs no scrolling) for this content. Scroll math
 * rather than an IntersectionObserver, so it is testable in jsdom; new content starts over.
 */
export function useScrolledToEnd<T extends HTMLElement>(contentKey: string) {
  const ref = useRef<T>(null);
  const [reachedKey, setReachedKey] = useState<string | null>(null);

  const check = useCallback(() => {
    const el = ref.current;
    if (el && el.scrollTop + el.clientHeight >= el.scrollHeight - TOLERANCE_PX) setReachedKey(contentKey);
  }, [contentKey]);

  // Short documents need no scrolling: check once the content has been laid out.
  useEffect(() => {
    const frame = window.requestAnimationFrame(check);
    return () => window.cancelAnimationFrame(frame);
  }, [check]);

  return { ref, atEnd: reachedKey === contentKey, onScroll: check };
}
