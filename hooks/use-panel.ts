"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { PanelDelta, PanelView } from "@/lib/panels/panel-view";
import { queryKeys } from "./query-keys";
import { getSocket, listenTo } from "./use-socket";

async function fetchPanel(panelId: string): Promise<PanelView> {
  const response = await fetch(`/api/panels/${panelId}`);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? "Could not load the panel.");
  return body.data;
}

/**
 * A panel as it runs: its state from the server, kept current by panel:updated, and each
 * working agent's answer as it streams (panel:delta, per turn: a restart starts over). After a
 * reconnect the state is read again, since updates may have been missed.
 */
export function usePanel(panelId: string) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.panel(panelId), queryFn: () => fetchPanel(panelId) });
  const [drafts, setDrafts] = useState<Record<string, { turnId: string; pieces: string[] }>>({});

  useEffect(() => {
    const socket = getSocket();
    const onUpdated = (view: PanelView) => {
      if (view.id === panelId) queryClient.setQueryData(queryKeys.panel(panelId), view);
    };
    const onDelta = (delta: PanelDelta) => {
      if (delta.panelId !== panelId) return;
      setDrafts((current) => {
        const entry = current[delta.agentId];
        const pieces = entry?.turnId === delta.turnId ? [...entry.pieces] : [];
        pieces[delta.index] = delta.text;
        return { ...current, [delta.agentId]: { turnId: delta.turnId, pieces } };
      });
    };
    const onConnect = () => void queryClient.invalidateQueries({ queryKey: queryKeys.panel(panelId) });
    return listenTo(socket, { "panel:updated": onUpdated, "panel:delta": onDelta, connect: onConnect });
  }, [panelId, queryClient]);

  const streaming = Object.fromEntries(Object.entries(drafts).map(([agentId, draft]) => [agentId, draft.pieces.join("")]));
  return { panel: query.data, error: query.error, streaming };
}
