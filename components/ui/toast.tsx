// Toast: short notices after an action ("Key revoked"). Put <ToastProvider> once around the
// console (app/(console)/layout.tsx does); in a client component: const toast = useToast();
// toast.success("Saved"); toast.error(result.error.message).
"use client";
import * as ToastPrimitive from "@radix-ui/react-toast";
import { CircleAlert, CircleCheck, X } from "lucide-react";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { cn } from "./cn";

export type ToastTone = "success" | "error";
export type ToastInput = { tone: ToastTone; title: string; description?: string };
export type ToastApi = { show: (t: ToastInput) => void; success: (title: string, description?: string) => void; error: (title: string, description?: string) => void };

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<(ToastInput & { id: number })[]>([]);
  const show = useCallback((t: ToastInput) => setToasts((all) => [...all.slice(-3), { ...t, id: Date.now() + Math.random() }]), []);
  const api = useMemo<ToastApi>(
    () => ({ show, success: (title, description) => show({ tone: "success", title, description }), error: (title, description) => show({ tone: "error", title, description }) }),
    [show],
  );
  return (
    <ToastContext.Provider value={api}>
      <ToastPrimitive.Provider swipeDirection="right" duration={6000}>
        {children}
        {toasts.map((t) => (
          <ToastPrimitive.Root
            key={t.id}
            // why: an error interrupts a screen reader; a success waits its turn.
            type={t.tone === "error" ? "foreground" : "background"}
            duration={t.tone === "error" ? 10_000 : 5_000}
            onOpenChange={(open) => !open && setToasts((all) => all.filter((x) => x.id !== t.id))}
            className={cn("flex items-start gap-3 rounded-lg border bg-white p-4 shadow-lg", t.tone === "error" ? "border-danger/40" : "border-success/40")}
          >
            {t.tone === "error" ? <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-danger" /> : <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success" />}
            <div className="min-w-0 flex-1">
              <ToastPrimitive.Title className="text-sm font-medium text-gray-900">{t.title}</ToastPrimitive.Title>
              {t.description && <ToastPrimitive.Description className="mt-1 text-sm break-words text-gray-700">{t.description}</ToastPrimitive.Description>}
            </div>
            <ToastPrimitive.Close aria-label="Dismiss" className="rounded p-1 text-gray-500 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-ring">
              <X aria-hidden="true" className="size-4" />
            </ToastPrimitive.Close>
          </ToastPrimitive.Root>
        ))}
        <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[60] flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
      </ToastPrimitive.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast() needs a <ToastProvider> above it");
  return api;
}
