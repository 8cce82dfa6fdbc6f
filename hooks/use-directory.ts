"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { queryKeys } from "./query-keys";
import { getSocket, listenTo } from "./use-socket";

async function fetchDirectory(): Promise<ProjectDirectory | null> {
  const response = await fetch("/api/directory");
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? "Could not load the project's people.");
  return body.data;
}

/**
 * The project's people and agents. People join at any time (a picker refetches when it opens);
 * agents an admin adds, changes or disables are announced, and the list follows at once.
 */
export function useDirectory(initial: ProjectDirectory | null) {
  const query = useQuery({ queryKey: queryKeys.directory(), queryFn: fetchDirectory, initialData: initial });
  const { refetch } = query;
  useEffect(() => {
    const socket = getSocket();
    return listenTo(socket, { "directory:changed": () => void refetch() });
  }, [refetch]);
  return { directory: query.data, refresh: () => void refetch() };
}
