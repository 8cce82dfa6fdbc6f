"use client";

import { useQuery } from "@tanstack/react-query";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { queryKeys } from "./query-keys";

async function fetchDirectory(): Promise<ProjectDirectory | null> {
  const response = await fetch("/api/directory");
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? "Could not load the project's people.");
  return body.data;
}

/** People join at any time: the list is refetched whenever a picker asks for it. */
export function useDirectory(initial: ProjectDirectory | null) {
  const query = useQuery({ queryKey: queryKeys.directory(), queryFn: fetchDirectory, initialData: initial });
  return { directory: query.data, refresh: () => void query.refetch() };
}
