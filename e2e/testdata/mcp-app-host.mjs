// The host side of the MCP Apps bridge, in Node: AppBridge from
// @modelcontextprotocol/ext-apps (its directory in MCP_EXT_APPS_DIR) talks
// to testctl's run_report app over an in-memory postMessage, the app's
// script running against a small DOM. It sends the tool's input and result,
// then prints what the app rendered: {"text", "tags"} as JSON.
//
// Usage: node mcp-app-host.mjs APP.html RESULT.json
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const [htmlPath, resultPath] = process.argv.slice(2);
const { AppBridge } = await import(pathToFileURL(join(process.env.MCP_EXT_APPS_DIR, "dist/src/app-bridge.js")).href);
const html = readFileSync(htmlPath, "utf8");
const result = JSON.parse(readFileSync(resultPath, "utf8"));
const script = html.match(/<script>([\s\S]*)<\/script>/)[1];
if (/<(link|img|iframe)\b|src=|https?:\/\//.test(html.replace(/<script>[\s\S]*<\/script>/, ""))) {
  throw new Error("the app's page loads something from outside itself");
}

// A DOM of elements with text, enough for the app and to read back.
const tags = [];
class Element {
  constructor(tag) { this.tagName = tag; this.children = []; this.text = ""; this.className = ""; tags.push(tag); }
  set textContent(t) { this.children = []; this.text = String(t); }
  get textContent() { return this.text + this.children.map((c) => c.textContent).join(""); }
  get firstChild() { return this.children[0] || null; }
  appendChild(c) { this.children.push(c); return c; }
  removeChild(c) { this.children = this.children.filter((x) => x !== c); return c; }
}
const root = new Element("main");
const document = { createElement: (t) => new Element(t), getElementById: (id) => (id === "report" ? root : null) };
function lines(e, depth = 0) {
  const own = e.text ? [e.text] : [];
  const block = ["h1", "h2", "p", "tr", "section"].includes(e.tagName);
  const inner = e.children.map((c) => lines(c, depth + 1)).join(block ? " " : "\n");
  return [...own, inner].filter(Boolean).join(" ");
}

// The page's window and the host's, joined by postMessage.
const listeners = [];
const hostWindow = {
  postMessage(msg) { queueMicrotask(() => transport.onmessage?.(structuredClone(msg))); },
};
const view = { parent: hostWindow, addEventListener: (type, fn) => type === "message" && listeners.push(fn) };
const transport = {
  onmessage: null, onclose: null, onerror: null,
  async start() {},
  async close() { this.onclose?.(); },
  async send(msg) { queueMicrotask(() => listeners.forEach((fn) => fn({ source: hostWindow, data: structuredClone(msg) }))); },
};

const bridge = new AppBridge(null, { name: "testctl-test-host", version: "1" }, {});
const shown = new Promise((resolve) => {
  bridge.oninitialized = async () => {
    await bridge.sendToolInput({ arguments: result.arguments });
    await bridge.sendToolResult(result.result);
    setTimeout(resolve, 100);
  };
});
await bridge.connect(transport);
vm.runInNewContext(script, { window: view, document, Promise, JSON, Object, Array, String, console });
await Promise.race([shown, new Promise((_, reject) => setTimeout(() => reject(new Error("the app never initialized")), 10000))]);
console.log(JSON.stringify({ text: lines(root), tags: [...new Set(tags)] }));
process.exit(0);
