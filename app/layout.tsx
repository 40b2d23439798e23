import type { ReactNode } from "react";

export const metadata = { title: "Folio", description: "Document rendering: templates and data or HTML to PDF and images." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: 0, color: "#111827" }}>{children}</body>
    </html>
  );
}
