import type { McpToolResult } from "./mcp-pool";

/**
 * What a tool answered, as the text a model reads: its text blocks, an embedded resource's text,
 * and for what is not text (images, audio, binary resources, links) a line naming it; the
 * structured content when there is nothing else. Never throws on content it does not know.
 */
export function toolResultText(result: McpToolResult): string {
  const parts = result.content.map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "resource":
        return "text" in block.resource && typeof block.resource.text === "string" ? block.resource.text : `[resource ${block.resource.uri}: binary, not shown]`;
      case "resource_link":
        return `[link: ${block.uri}]`;
      default:
        return `[${block.type}${"mimeType" in block && typeof block.mimeType === "string" ? ` ${block.mimeType}` : ""}: not shown]`;
    }
  });
  if (parts.length === 0 && result.structuredContent) return JSON.stringify(result.structuredContent);
  return parts.join("\n");
}
