import type { ReactNode } from "react";
import "./globals.css";

export const metadata = { title: { default: "Folio", template: "%s · Folio" }, description: "Document rendering: templates and data or HTML to PDF and images." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-gray-50 font-sans text-gray-900 antialiased">{children}</body>
    </html>
  );
}
