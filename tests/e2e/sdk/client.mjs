#!/usr/bin/env node
// Drives `msgcode-desktop-mcp mcp` with the official MCP TypeScript SDK (@modelcontextprotocol/sdk
// 1.x) as a real MCP client, for the end-to-end tests: connect (initialize, initialized),
// tools/list, then the given tool calls in order. Prints one line of JSON on stdout.
//
//   node client.mjs --server <msgcode-desktop-mcp> --cwd <dir> --calls '<JSON array>' [--abort-after-ms N]
//
// --calls is an array of {"name": ..., "arguments": {...}}. Each call gets a 120 s request timeout
// and is recorded as {name, result} (the CallToolResult as received) or, when the SDK throws (a
// JSON-RPC error, a timeout, a result it rejects), as {name, error, code}.
// With --abort-after-ms N the last call is started, and N ms later the client is closed, which
// ends the server process (stdin closed, then SIGTERM, then SIGKILL); that call is recorded as
// {name, aborted: true} and not waited for.
//
// Output on success (exit 0):
//   {"serverVersion", "protocolVersion", "instructions", "tools", "toolSchemasValid", "results", "stderr"}
// On a failure to start, connect or list tools (exit 1), or a usage error (exit 2):
//   {"fatal": "<message>", "stderr": "<server stderr so far>"}
// The server's stderr is collected (first 4000 characters) rather than passed through.
//
// Plain JavaScript for Node 18+, no dependency besides the SDK (npm ci in this directory).

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const CALL_TIMEOUT_MS = 120000;
const STDERR_LIMIT = 4000;

let stderrText = '';

// Writes the one line of output and exits once it is flushed.
function finish(object, exitCode) {
    process.stdout.write(JSON.stringify(object) + '\n', () => process.exit(exitCode));
}

function fail(message, exitCode) {
    finish({ fatal: message, stderr: stderrText }, exitCode);
}

function parseArgs(argv) {
    const options = { server: null, cwd: null, calls: null, abortAfterMs: null };
    for (let i = 0; i < argv.length; i += 1) {
        const flag = argv[i];
        const value = argv[i + 1];
        if (value === undefined) {
            throw new Error(`${flag} needs a value`);
        }
        switch (flag) {
        case '--server': options.server = value; break;
        case '--cwd': options.cwd = value; break;
        case '--calls': options.calls = value; break;
        case '--abort-after-ms': options.abortAfterMs = value; break;
        default: throw new Error(`unknown argument: ${flag}`);
        }
        i += 1;
    }
    if (!options.server) {
        throw new Error('--server is required');
    }
    let calls = [];
    if (options.calls !== null) {
        calls = JSON.parse(options.calls);
        if (!Array.isArray(calls) ||
            !calls.every(call => call && typeof call === 'object' && typeof call.name === 'string')) {
            throw new Error('--calls must be a JSON array of {"name": ..., "arguments": {...}}');
        }
    }
    let abortAfterMs = null;
    if (options.abortAfterMs !== null) {
        abortAfterMs = Number(options.abortAfterMs);
        if (!Number.isInteger(abortAfterMs) || abortAfterMs < 0) {
            throw new Error('--abort-after-ms must be a non-negative integer');
        }
    }
    // spawn() resolves a relative command path against the child's cwd; resolve it against ours.
    const server = options.server.includes('/') ? path.resolve(options.server) : options.server;
    const cwd = options.cwd === null ? process.cwd() : path.resolve(options.cwd);
    // A missing cwd would otherwise surface as "spawn <server> ENOENT", blaming the server.
    if (!fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
        throw new Error(`--cwd is not a directory: ${cwd}`);
    }
    return { server, cwd, calls, abortAfterMs };
}

// The SDK's Client tells a transport the negotiated protocol version through the optional
// setProtocolVersion() hook (meant for HTTP headers); the stdio transport has none, so add it.
class RecordingStdioTransport extends StdioClientTransport {
    setProtocolVersion(version) {
        this.protocolVersion = version;
    }
}

async function callOnce(client, call) {
    try {
        const result = await client.callTool(
            { name: call.name, arguments: call.arguments ?? {} }, undefined, { timeout: CALL_TIMEOUT_MS });
        return { name: call.name, result };
    } catch (err) {
        return { name: call.name, error: String(err?.message ?? err), code: err?.code ?? null };
    }
}

async function main() {
    let options;
    try {
        options = parseArgs(process.argv.slice(2));
    } catch (err) {
        fail(`usage: ${err.message}`, 2);
        return;
    }

    const transport = new RecordingStdioTransport({
        command: options.server,
        args: ['mcp'],
        cwd: options.cwd,
        env: { ...process.env },
        stderr: 'pipe',
    });
    // The PassThrough exists before start(), so nothing the server prints early is lost.
    transport.stderr.setEncoding('utf8');
    transport.stderr.on('data', chunk => {
        if (stderrText.length < STDERR_LIMIT) {
            stderrText = (stderrText + chunk).slice(0, STDERR_LIMIT);
        }
    });

    const client = new Client({ name: 'msgcode-desktop-mcp-sdk-e2e', version: '1.0.0' });
    try {
        await client.connect(transport);
    } catch (err) {
        await client.close().catch(() => {});
        fail(`connect: ${err?.message ?? err}`, 1);
        return;
    }

    let tools;
    try {
        tools = (await client.listTools()).tools;
    } catch (err) {
        await client.close().catch(() => {});
        fail(`tools/list: ${err?.message ?? err}`, 1);
        return;
    }

    const results = [];
    const calls = options.calls;
    const aborting = options.abortAfterMs !== null && calls.length > 0;
    const waited = aborting ? calls.slice(0, -1) : calls;
    for (const call of waited) {
        results.push(await callOnce(client, call));
    }
    if (aborting) {
        const last = calls[calls.length - 1];
        // Never awaited: closing rejects it with "Connection closed" once the server is gone.
        callOnce(client, last).catch(() => {});
        await new Promise(resolve => setTimeout(resolve, options.abortAfterMs));
        results.push({ name: last.name, aborted: true });
    }
    await client.close().catch(() => {});

    finish({
        serverVersion: client.getServerVersion() ?? null,
        protocolVersion: transport.protocolVersion ?? null,
        instructions: client.getInstructions() ?? null,
        tools: tools.map(tool => tool.name),
        toolSchemasValid: tools.every(tool => tool.inputSchema?.type === 'object'),
        results,
        stderr: stderrText,
    }, 0);
}

main().catch(err => fail(`internal: ${err?.stack ?? err}`, 1));
