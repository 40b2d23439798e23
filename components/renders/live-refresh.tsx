// LiveRefresh: while the page shows a queued or processing render, refreshes the server component
// every 1.5 s (only while the tab is visible), so states change without reloading; stops once
// nothing on the page runs. docs/architecture.md ("Live render states") says why polling.
"use client";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useTransition } from "react";

export const LIVE_INTERVAL_MS = 1500;
/** A refresh still pending after this long is taken as lost, and the next one starts anyway. */
export const LIVE_STALL_MS = 10_000;

export function LiveRefresh({ active, label = "Updating while renders run" }: { active: boolean; label?: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const pendingRef = useRef(false);
  const startedAt = useRef(0);
  useEffect(() => {
    pendingRef.current = pending;
  }, [pending]);

  useEffect(() => {
    if (!active) return;
    const refresh = () => {
      // why: one refresh at a time; a slow one is not stacked on. But a transition can stay pending
      // for good (a refresh whose answer never completes, seen on a loaded machine), and the page
      // must not stop following its renders then: after LIVE_STALL_MS a new refresh replaces it.
      if (document.visibilityState !== "visible") return;
      if (pendingRef.current && Date.now() - startedAt.current < LIVE_STALL_MS) return;
      startedAt.current = Date.now();
      startTransition(() => router.refresh());
    };
    const timer = setInterval(refresh, LIVE_INTERVAL_MS);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [active, router]);

  // why a fixed height: the line comes and goes with running renders, and must not move the page.
  return (
    <p className="flex h-5 items-center gap-2 text-xs text-gray-600">
      {active && (
        <>
          <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-accent motion-reduce:animate-none" />
          {label}
        </>
      )}
    </p>
  );
}
