// useLeaveGuard: unsaved changes are never lost silently. While `dirty`, the browser asks before
// the page is left (reload, close, typed address) and the console asks before a link takes you away.
"use client";
import { useEffect, useRef } from "react";

/** `question` is what the console asks before a link is followed: "You have unsaved changes to this file. …" */
export function useLeaveGuard(dirty: boolean, question: string) {
  const latest = useRef({ dirty, question });
  useEffect(() => {
    latest.current = { dirty, question };
  }, [dirty, question]);

  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (!latest.current.dirty) return;
      e.preventDefault();
      e.returnValue = "";
    };
    // why capture phase: Next's <Link> navigates on click; a listener before it can still cancel.
    const onClick = (e: MouseEvent) => {
      if (!latest.current.dirty || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.("a[href]");
      if (!(a instanceof HTMLAnchorElement) || a.target === "_blank" || a.hasAttribute("download")) return;
      // why: a blob: link (a preview's PDF) opens what is on the page, it does not leave it.
      if (a.href.startsWith("blob:")) return;
      if (!window.confirm(latest.current.question)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, []);
}
