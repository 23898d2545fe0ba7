// Compiles every tool's inputSchema of a tools/list answer with Ajv (JSON Schema draft
// 2020-12, strict mode): a schema that is not valid JSON Schema fails. Used by the remote
// agent's end-to-end test. Usage: node check-schemas.mjs TOOLS.json  (the `tools` array)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
// Ajv comes with the MCP SDK (package-lock.json pins it).
const Ajv2020 = require("ajv/dist/2020").default;

const tools = JSON.parse(readFileSync(process.argv[2], "utf8"));
const ajv = new Ajv2020({ strict: true, allErrors: true });
let failed = 0;
for (const tool of tools) {
  try {
    if (typeof tool.name !== "string" || typeof tool.description !== "string")
      throw new Error("name and description must be strings");
    ajv.compile(tool.inputSchema);
  } catch (error) {
    failed += 1;
    console.error(`${tool.name}: ${error.message}`);
  }
}
console.log(`${tools.length - failed} of ${tools.length} schemas valid`);
process.exit(failed === 0 && tools.length > 0 ? 0 : 1);
