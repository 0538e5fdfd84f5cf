// A TypeScript-SDK MCP client (what IDE clients embed) that answers a form elicitation:
// node elicit_client.mjs <mcp url> <token> <tool arguments JSON> <form answer JSON>
// Prints {"seen": <the elicitation's params>, "result": <the tool result>} as one JSON line.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, token, request, answer] = process.argv.slice(2);
const client = new Client({ name: "choice-ts-test", version: "1.0.0" },
                          { capabilities: { elicitation: { form: {} } } });
let seen = null;
client.setRequestHandler(ElicitRequestSchema, async (elicit) => {
  seen = elicit.params;
  return { action: "accept", content: JSON.parse(answer) };
});
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
await client.connect(transport);
await client.listTools(); // the client then validates structuredContent against outputSchema
const result = await client.callTool({ name: "provide_choice", arguments: JSON.parse(request) });
console.log(JSON.stringify({ seen, result }));
await client.close();
