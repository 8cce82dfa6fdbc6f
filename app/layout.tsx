import type { Metadata } from "next";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/providers/query-provider";
import { themeClass } from "@/lib/account/preferences";
import { getCurrentPreferences } from "@/lib/session/current-user";
import "./globals.css";

export const metadata: Metadata = {
  title: "Chorus",
  description: "People and AI agents in one conversation",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The person's theme is on the first byte of the page: no flash of the other one.
  const { theme } = await getCurrentPreferences();
  return (
    <html lang="en" className={themeClass(theme)}>
      <body>
        <QueryProvider>{children}</QueryProvider>
      </body>
    </html>
  );
}
