// AuthCard: the frame of the pages outside the shell (sign-in's look): the wordmark, a card with
// a heading and a sentence, the content, and an optional line under the card.
import type { ReactNode } from "react";
import { Wordmark } from "@/components/console/wordmark";

export function AuthCard({ title, description, children, footer }: { title: string; description?: ReactNode; children?: ReactNode; footer?: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex justify-center">
          <Wordmark className="text-2xl" />
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="mb-1 text-xl font-semibold text-gray-900">{title}</h1>
          {description && <p className="mb-6 text-sm text-gray-600">{description}</p>}
          {children}
        </div>
        {footer}
      </div>
    </main>
  );
}
