// A client testctl did not write: the reference TypeScript SDK's, against
// `testctl --sandbox mcp` over stdio or streamable HTTP. Run by
// e2e/mcp_client_test.go:
//
//   node mcp-client.mjs TESTCTL_BINARY stdio|http
//
// with MCP_SDK_DIR the directory of @modelcontextprotocol/sdk (1.32.2). It
// prints one line per check and exits 1 at the first that fails.
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [bin, mode] = process.argv.slice(2);
const sdk = process.env.MCP_SDK_DIR;
if (!bin || !["stdio", "http"].includes(mode) || !sdk) {
  console.error("usage: MCP_SDK_DIR=… node mcp-client.mjs TESTCTL_BINARY stdio|http");
  process.exit(2);
}
const load = (p) => import(pathToFileURL(path.join(sdk, "dist/esm", p)).href);
const { Client } = await load("client/index.js");
const { StdioClientTransport } = await load("client/stdio.js");
const { StreamableHTTPClientTransport } = await load("client/streamableHttp.js");

function check(ok, what, detail) {
  if (!ok) {
    console.log(`FAIL ${mode}: ${what}${detail ? "\n" + detail : ""}`);
    process.exit(1);
  }
  console.log(`ok   ${mode}: ${what}`);
}

const servers = [];
process.on("exit", () => servers.forEach((p) => p.kill()));

// connect starts a server with extra flags and connects a client to it.
async function connect(extra = []) {
  const args = ["--sandbox", "mcp", ...extra];
  const transportErrors = [];
  let transport;
  if (mode === "stdio") {
    transport = new StdioClientTransport({ command: bin, args, stderr: "pipe" });
  } else {
    const proc = spawn(bin, [...args, "--http", "127.0.0.1:0"], { stdio: ["ignore", "pipe", "pipe"] });
    servers.push(proc);
    let stdout = "";
    proc.stdout.on("data", (d) => (stdout += d));
    let url;
    let err = "";
    for await (const chunk of proc.stderr) {
      err += chunk;
      const m = err.match(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (m) {
        url = m[1];
        break;
      }
    }
    check(url, "the HTTP server says where it listens", err);
    proc.stderr.resume();
    transport = new StreamableHTTPClientTransport(new URL(url));
    transport.url = url;
    transport.proc = proc;
    transport.stdout = () => stdout;
  }
  const client = new Client({ name: "reference-client", version: "1.0.0" });
  // A result of a cancelled request may still come (testctl says in it
  // how to resume), and a progress notification the server sent before it
  // saw the cancellation: this client has forgotten the request by then
  // and reports them, which is no transport error (the protocol lets both
  // cross a cancellation).
  client.onerror = (e) => {
    const s = String(e);
    if (!s.includes("unknown message ID") && !s.includes("progress notification for an unknown token")) transportErrors.push(s);
  };
  await client.connect(transport);
  // What the server sent, as it came off the wire: the SDK hands a
  // notification to onprogress in a later microtask but handles a response
  // at once, so a notification read in the same chunk as its call's result
  // is dropped by the SDK ("unknown token", filtered above). The server's
  // promise is what it sends; what onprogress sees may lack that last one.
  const wire = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message?.method === "notifications/progress") wire.push(message.params);
    deliver?.call(transport, message, extra);
  };
  return { client, transport, transportErrors, wire };
}

const long = { timeout: 300000, resetTimeoutOnProgress: true };
const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("");

// --- initialize and the tools
const { client, transport, transportErrors, wire } = await connect();
check(client.getServerVersion()?.name === "testctl", "initialize names the server");
const tools = (await client.listTools()).tools;
const names = tools.map((t) => t.name).sort();
const all = ["create_test_case", "get_logs", "get_run", "list_runs", "list_test_cases", "rerun_failed", "run_report",
  "start_run", "tunnel_status", "wait_run"];
check(JSON.stringify(names) === JSON.stringify(all), "tools/list offers the ten tools", names.join(" "));
check(tools.every((t) => t.inputSchema && t.outputSchema && t.description), "every tool has schemas and a description");

// --- a failing plan's story, with progress
const progress = [];
const started = await client.callTool(
  { name: "start_run", arguments: { plans: ["pln-failing_sandbox"] } },
  undefined,
  { ...long, onprogress: (p) => progress.push(p.message) },
);
const story = text(started);
check(!started.isError && started.structuredContent.verdict === "failed" && story.startsWith("Verdict: failed"),
  "start_run returns the verdict first", story.slice(0, 400));
check(story.includes("Expired coupon SPRING-2019 was accepted") && story.includes("POST /api/payments 502") &&
  story.includes("issue CRITICAL"), "the failing plan's story: the evaluator, failed requests, issues", story);
const runId = started.structuredContent.runIds[0];
const isEnd = (m) => m && m.startsWith(`run ${runId} `) && m.includes(" — ");
const sent = wire.map((p) => p.message).filter(isEnd);
check(sent.length === 7, "a progress notification at each of the 7 test cases' ends", wire.map((p) => p.message).join("\n"));
check(wire.every((p, i) => i === 0 || p.progress > wire[i - 1].progress), "progress values increase",
  wire.map((p) => p.progress).join(" "));
const delivered = progress.filter(isEnd);
check(delivered.length >= 5 && delivered.every((m, i) => m === sent[i]),
  `onprogress saw them in order, but those that crossed the result (${delivered.length} of ${sent.length})`, progress.join("\n"));
check(started.structuredContent.data.shortId === runId, "structured content carries the run's -o json document");
// The next steps are this server's tool calls, each once, never a shell command (issue 42, point 2).
const rerunCall = `rerun_failed {"run_id": "${runId}"}`;
check(story.includes(`get_logs {"test_case_run": "${runId}-3", "kind": "network", "status": "errors"}`) &&
  story.split(rerunCall).length === 2 && !story.includes("testctl "), "the next steps name tools, each once", story);

// --- every other tool
const call = async (name, args, opts) => {
  const res = await client.callTool({ name, arguments: args }, undefined, opts ?? long);
  return { res, t: text(res), s: res.structuredContent };
};
let r = await call("wait_run", { run_ids: [runId] });
check(r.s.verdict === "failed" && r.s.exitCode === 1, "wait_run: the same verdict");
r = await call("get_run", { run_id: runId, test_cases: "failed" });
check(!r.res.isError && r.s.data.shortId === runId, "get_run");
r = await call("run_report", { run_ids: [runId] });
check(r.s.verdict === "failed" && r.t.includes("Pay with a declined card"), "run_report: the story again");
r = await call("list_runs", { plan: "pln-failing_sandbox", limit: 3 });
check(!r.res.isError && r.s.data.runs.length <= 3 && r.s.data.runs.length > 0, "list_runs, bounded");
r = await call("list_test_cases", { app: "app_sandbox-web", limit: 2 });
check(!r.res.isError && r.s.data.testCases.length === 2, "list_test_cases");
r = await call("get_logs", { test_case_run: `${runId}-3`, kind: "network", status: "errors", limit: 2 });
check(!r.res.isError && r.s.cut?.includes("kept the first 2"), "get_logs, bounded, saying what was cut", JSON.stringify(r.s));
r = await call("tunnel_status", { runner_id: "runner-healthy" });
check(!r.res.isError && r.s.verdict === "ok", "tunnel_status");
// The data is in the text too, for clients that give the model only the text (issue 42, point 1).
r = await call("tunnel_status", { runner_id: "runner-degraded" });
check(!r.res.isError && r.s.data.status === "degraded" && r.t.includes("Health:       degraded"), "tunnel_status says degraded in its text", r.t);
r = await call("create_test_case", { app: "app_sandbox-web", name: "Apply a coupon", goal: "Apply SPRING-2025 and see the discount" });
check(!r.res.isError && /disabled/i.test(r.t), "create_test_case explains that it is created disabled", r.t);
r = await call("rerun_failed", { run_id: runId, wait: false });
check(!r.res.isError && r.s.verdict === "started" && r.s.runIds[0] !== runId, "rerun_failed starts a new run", r.t);

// --- a bad argument: a clear tool error, nothing sent
const before = (await call("list_runs", { plan: "pln-passing_sandbox", limit: 50 })).s.data.runs.length;
r = await call("start_run", { plans: ["pln-passing_sandbox"], junit: "../../outside.xml" });
check(r.res.isError && r.t.includes("inside the working directory"), "a report path outside the workspace is a tool error", r.t);
r = await call("start_run", { plans: ["not a plan"] });
check(r.res.isError && r.s.exitCode === 2, "an invalid plan is a usage error", r.t);
const after = (await call("list_runs", { plan: "pln-passing_sandbox", limit: 50 })).s.data.runs.length;
check(before === after, "no run was started by the bad calls");

// --- a cancelled wait ends at once; the run goes on
r = await call("start_run", { plans: ["pln-slow_sandbox"], wait: false });
const slow = r.s.runIds[0];
const abort = new AbortController();
const t0 = Date.now();
let cancelled = false;
try {
  await client.callTool({ name: "wait_run", arguments: { run_ids: [slow] } }, undefined,
    { ...long, signal: abort.signal, onprogress: () => abort.abort() });
} catch (e) {
  cancelled = true;
}
check(cancelled && Date.now() - t0 < 30000, "a cancelled wait_run ends at once");
r = await call("get_run", { run_id: slow });
check(r.s.data.status !== "COMPLETED", "the run goes on after the cancelled wait", r.s.data.status);
check(transportErrors.length === 0, "no transport error: stdout carried protocol messages only", transportErrors.join("\n"));
if (mode === "http") {
  const stdout = transport.stdout();
  check(stdout === "", "the HTTP server writes nothing on stdout", stdout);
  // A web page of another origin is refused (DNS rebinding).
  const res = await fetch(transport.url, {
    method: "POST", headers: { Origin: "http://evil.example", "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  check(res.status === 403, "a request from another origin is refused", String(res.status));
}
await client.close();

// --- read-only mode
const ro = await connect(["--read-only"]);
const roNames = (await ro.client.listTools()).tools.map((t) => t.name);
check(!roNames.includes("start_run") && !roNames.includes("rerun_failed") && !roNames.includes("create_test_case") &&
  roNames.length === 7, "--read-only offers no tool that starts, reruns or creates", roNames.join(" "));
let refused = false;
try {
  const res = await ro.client.callTool({ name: "start_run", arguments: { plans: ["pln-passing_sandbox"] } });
  refused = res.isError;
} catch (e) {
  refused = true;
}
check(refused, "--read-only refuses start_run");
await ro.client.close();

// --- a SIGTERM to the server ends a call's wait at once: its result says
// terminated (143) and how to resume, as the command's would.
const sig = await connect();
const pid = mode === "stdio" ? sig.transport.pid : sig.transport.proc.pid;
const t1 = Date.now();
let signalled;
let signalSent = false; // one signal: a second hurries the reports, a third ends the process at once
try {
  signalled = await sig.client.callTool({ name: "start_run", arguments: { plans: ["pln-slow_sandbox"] } }, undefined,
    { ...long, onprogress: () => signalSent || (signalSent = process.kill(pid, "SIGTERM")) });
} catch (e) {
  signalled = { error: String(e) };
}
check(signalled.structuredContent?.verdict === "terminated" && signalled.structuredContent?.exitCode === 143 &&
  Date.now() - t1 < 30000, "a SIGTERM to the server ends the call's wait: terminated, 143", JSON.stringify(signalled).slice(0, 600));
check(text(signalled).includes("wait_run"), "the signalled call says how to resume", text(signalled));
console.log(`PASS ${mode}`);
process.exit(0);
