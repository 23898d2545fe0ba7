#!/usr/bin/python3
"""desktop.find through the bridge against the same search by pyatspi (a full walk) and by
dogtail (findChildren by name and role), measured in the same run on the same apps.

Run by bench/find-bench inside a headless desktop; prints medians and ratios."""
import argparse
import json
import os
import socket
import statistics
import sys
import time
import uuid

import pyatspi


class Bridge:
    def __init__(self, path, workspace):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.workspace = workspace

    def call(self, method, params):
        params = dict(params)
        params["meta"] = {"schemaVersion": 1, "requestId": str(uuid.uuid4()),
                          "workspacePath": self.workspace, "timeoutMs": 60000}
        request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise RuntimeError("host closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


def app_by_pid(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is not None and app.get_process_id() == pid:
            return app
    raise RuntimeError("no accessible app with pid %d" % pid)


def pyatspi_walk(app, name, role):
    """The full walk a client without the host does: every node's role and name."""
    found = []
    stack = [app]
    while stack:
        node = stack.pop()
        try:
            if node.name == name and node.getRoleName() == role:
                found.append(node)
            stack.extend(child for child in node if child is not None)
        except Exception:
            continue
    return found


def dogtail_find(pid, name, role):
    from dogtail import predicate, tree
    for app in tree.root.applications():
        if app.get_process_id() == pid:
            return app.findChildren(predicate.GenericPredicate(name=name, roleName=role), recursive=True)
    raise RuntimeError("dogtail: no app with pid %d" % pid)


def median_ms(fn, runs):
    times = []
    result = None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(times), result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--target", action="append", required=True,
                        help="label:pid:name:atspiRole:axRole")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline-runs", type=int, default=3)
    parser.add_argument("--cold-only", metavar="FILE",
                        help="measure only the baselines, before the host runs, into FILE")
    parser.add_argument("--cold", metavar="FILE", help="baselines measured by --cold-only")
    args = parser.parse_args()

    from dogtail.config import config
    config.searchShowingOnly = False
    config.logDebugToStdOut = False
    config.logDebugToFile = False

    if args.cold_only:
        # Before the host starts, no client has registered for AT-SPI events, so GTK offers
        # no Cache.GetItems and libatspi asks for every node: the walk a plain client pays.
        cold = {}
        for spec in args.target:
            label, pid, name, atspi_role, _ = spec.split(":")
            app = app_by_pid(int(pid))
            walk_ms, walked = median_ms(lambda: pyatspi_walk(app, name, atspi_role), args.baseline_runs)
            cold[label] = {"pyatspi": walk_ms, "matches": len(walked)}
        with open(args.cold_only, "w") as f:
            json.dump(cold, f)
        return 0
    cold = {}
    if args.cold:
        with open(args.cold) as f:
            cold = json.load(f)

    bridge = Bridge(args.socket, args.workspace)
    rows = []
    for spec in args.target:
        label, pid, name, atspi_role, ax_role = spec.split(":")
        pid = int(pid)
        params = {"route": {"app": {"pid": pid}},
                  "selector": {"byRole": ax_role, "titleEquals": name, "caseSensitive": True}}
        answer = bridge.call("desktop.find", params)  # warm-up, and a check
        matched = answer.get("result", {}).get("matched")
        if matched != 1:
            print("bridge find on %s did not match exactly once: %s" % (label, json.dumps(answer)[:400]))
            return 1
        bridge_ms, _ = median_ms(lambda: bridge.call("desktop.find", params), args.runs)
        app = app_by_pid(pid)
        walk_ms, walked = median_ms(lambda: pyatspi_walk(app, name, atspi_role), args.baseline_runs)
        dog_ms, dogged = median_ms(lambda: dogtail_find(pid, name, atspi_role), args.baseline_runs)
        if len(walked) != 1 or len(dogged) != 1:
            print("baselines disagree on %s: pyatspi %d, dogtail %d matches" % (label, len(walked), len(dogged)))
            return 1
        rows.append((label, bridge_ms, walk_ms, dog_ms, cold.get(label, {}).get("pyatspi")))

    print()
    print("desktop.find for one named element, end to end through the bridge (with evidence written),")
    print("against pyatspi (a full walk) and dogtail (findChildren by name and role); same apps, same run.")
    print("Medians: bridge of %d runs, baselines of %d. 'cold' = pyatspi before the host started (no event"
          % (args.runs, args.baseline_runs))
    print("listener on the bus, so GTK offers no Cache.GetItems); the other baselines run while the host is up.")
    print("%-24s %9s %12s %12s %12s %11s %11s %11s" % ("target", "bridge", "pyatspi", "dogtail", "pyatspi",
                                                     "vs pyatspi", "vs dogtail", "vs cold"))
    print("%-24s %9s %12s %12s %12s" % ("", "ms", "ms", "ms", "cold ms"))
    for label, b, w, d, c in rows:
        cold_ms = "%12.1f" % c if c else "%12s" % "-"
        cold_ratio = "%10.1fx" % (c / b) if c else "%11s" % "-"
        print("%-24s %9.1f %12.1f %12.1f %s %10.1fx %10.1fx %s" % (label, b, w, d, cold_ms, w / b, d / b, cold_ratio))
    print()
    print("targets: >= 10x faster than the pyatspi walk on the 3000-node Qt fixture; >= 30x on GTK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
