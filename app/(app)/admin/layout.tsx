import type { ReactNode } from "react";

// Each admin page checks the role itself: layouts and pages render in parallel, so a check here
// could not keep a page's own queries from running.
export default function AdminLayout({ children }: { children: ReactNode }) {
  return <div className="h-full overflow-y-auto">{children}</div>;
}
