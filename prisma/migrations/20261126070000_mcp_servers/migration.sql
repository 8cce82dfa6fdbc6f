-- Tools over the Model Context Protocol (issue 21): the MCP servers an admin connects and the
-- tools each agent may call. Headers (http) and environment values (stdio) are stored
-- AES-256-GCM encrypted; only their names are kept in the clear, to show which are set.
-- "version" moves on every configuration change so each node's connection pool reconnects;
-- the status columns (last connection, last error, tool count) do not move it.
CREATE TYPE "McpTransport" AS ENUM ('http', 'stdio');

CREATE TABLE "mcp_servers" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "transport" "McpTransport" NOT NULL,
    "url" TEXT,
    "command" TEXT,
    "args" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "headerNames" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "encryptedHeaders" TEXT,
    "envNames" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "encryptedEnv" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "version" INTEGER NOT NULL DEFAULT 1,
    "lastConnectedAt" TIMESTAMP(3),
    "lastError" TEXT,
    "toolCount" INTEGER,
    "createdByUserId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_servers_pkey" PRIMARY KEY ("id"),
    -- Each transport has what it needs to connect, and nothing of the other's.
    CONSTRAINT "mcp_servers_transport_check" CHECK (
        ("transport" = 'http' AND "url" IS NOT NULL AND "command" IS NULL AND "encryptedEnv" IS NULL)
        OR ("transport" = 'stdio' AND "command" IS NOT NULL AND "url" IS NULL AND "encryptedHeaders" IS NULL)
    )
);
CREATE UNIQUE INDEX "mcp_servers_projectId_name_key" ON "mcp_servers"("projectId", "name");
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The tools an agent may call, one row per (agent, server, tool).
CREATE TABLE "agent_tools" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "askFirst" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_tools_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "agent_tools_agentId_serverId_toolName_key" ON "agent_tools"("agentId", "serverId", "toolName");
-- Deleting a server removes its tools from every agent.
CREATE INDEX "agent_tools_serverId_idx" ON "agent_tools"("serverId");
ALTER TABLE "agent_tools" ADD CONSTRAINT "agent_tools_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "agent_tools" ADD CONSTRAINT "agent_tools_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "mcp_servers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
