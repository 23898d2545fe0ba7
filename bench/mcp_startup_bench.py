#!/usr/bin/python3
"""How fast the MCP front door answers `initialize` from a cold start, as msgcode needs it (one
`msgcode-desktop-mcp mcp` process per tool call; the target is at most 100 ms).

Each run starts the door, writes msgcode's initialize request and times the answer line; the
baseline, measured in the same run the same way, is the time to start `msgcode-desktopctl
--version` and read its line (a Qt program doing nothing but start and print). Prints the
median, 90th percentile and worst of each and the ratio of the medians; asserts nothing about
time. Fails (status 1) only when the door gives no answer or a wrong one.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                         "params": {"protocolVersion": "2024-11-05", "capabilities": {},
                                    "clientInfo": {"name": "msgcode", "version": "2.4.0"}}}) + "\n"


def door_once(binary, env, cwd):
    started = time.perf_counter()
    process = subprocess.Popen([binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    process.stdin.write(INITIALIZE.encode())
    process.stdin.flush()
    line = process.stdout.readline()
    elapsed = (time.perf_counter() - started) * 1000
    process.terminate()
    process.wait(timeout=5)
    answer = json.loads(line)
    if answer.get("id") != "init" or answer.get("result", {}).get("protocolVersion") != "2024-11-05":
        raise RuntimeError("unexpected answer: %r" % line)
    return elapsed


def baseline_once(binary, env):
    started = time.perf_counter()
    process = subprocess.Popen([binary, "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    process.stdout.readline()
    elapsed = (time.perf_counter() - started) * 1000
    process.wait(timeout=5)
    return elapsed


def summary(name, values):
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    print("%-44s median %6.1f ms  p90 %6.1f ms  worst %6.1f ms  (%d runs)"
          % (name, statistics.median(values), p90, ordered[-1], len(values)))
    return statistics.median(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the build directory (build/default)")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    door = os.path.abspath(os.path.join(args.bin, "mcp", "msgcode-desktop-mcp"))
    ctl = os.path.abspath(os.path.join(args.bin, "cli", "msgcode-desktopctl"))
    with tempfile.TemporaryDirectory() as workspace:
        env = dict(os.environ)
        # No host is needed to answer initialize; the door must not wait for one.
        env["MSGCODE_DESKTOP_SOCKET"] = os.path.join(workspace, "no-host.sock")
        try:
            door_once(door, env, workspace)  # warm the page cache, as the baseline's first run
            baseline_once(ctl, env)
            doors, baselines = [], []
            for _ in range(args.runs):
                doors.append(door_once(door, env, workspace))
                baselines.append(baseline_once(ctl, env))
        except (RuntimeError, ValueError, OSError, subprocess.SubprocessError) as error:
            print("mcp startup bench: %s" % error, file=sys.stderr)
            return 1
    print("MCP front door: cold start to the initialize answer (target: <= 100 ms)")
    door_median = summary("msgcode-desktop-mcp mcp, initialize answered", doors)
    base_median = summary("baseline: msgcode-desktopctl --version", baselines)
    print("ratio door / baseline (medians): %.2f; target %s" %
          (door_median / base_median, "met" if door_median <= 100 else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
