#!/usr/bin/python3
"""The remote agent's reconnection delays as they really happen (docs/remote.md, "Reconnecting").

Starts the host headless, dialling a control server this script plays: it accepts each attempt
and closes it at once, so every attempt fails and the next one waits its backoff delay. The time
between two attempts is measured against the baseline, the delay the schedule asks for
(retryDelay doubled after each failure, at most 30 s); the figures and ratios are printed, nothing
about time is asserted. The unit tests check the schedule itself with an injected clock.
Fails (status 1) only when the host does not start or stops dialling too early; skips (77)
without a desktop session (the token is read from its keyring before each run).
"""
import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the build directory (build/default)")
    parser.add_argument("--retry-delay-ms", type=int, default=100)
    parser.add_argument("--retries", type=int, default=7)
    args = parser.parse_args()
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS") or not os.environ.get("DISPLAY"):
        print("skipped: no desktop session (scripts/headless-desktop start DIR; source DIR/env.sh)")
        return 77

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]

    with tempfile.TemporaryDirectory() as scratch:
        env = dict(os.environ)
        env["WORKSPACE_ROOT"] = os.path.join(scratch, "root")
        os.makedirs(env["WORKSPACE_ROOT"])
        host = subprocess.Popen(
            [os.path.join(args.bin, "app", "msgcode-desktop-host"), "--headless",
             "--socket", os.path.join(scratch, "bridge.sock"), "--data-dir", os.path.join(scratch, "data"),
             "--remote-host", "127.0.0.1", "--remote-port", str(port), "--remote-bind-code", "BENCH1",
             "--remote-retry-delay-ms", str(args.retry_delay_ms), "--remote-max-retries", str(args.retries)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        attempts = []
        try:
            expected_total = sum(min(args.retry_delay_ms * 2 ** i, 30000) for i in range(args.retries))
            listener.settimeout(expected_total / 1000 + 15)
            for _ in range(args.retries + 1):
                try:
                    connection, _ = listener.accept()
                except socket.timeout:
                    break
                attempts.append(time.perf_counter())
                connection.close()
        finally:
            host.terminate()
            host.wait(timeout=10)
            listener.close()

    print("remote agent backoff: attempts at a server that hangs up at once (retryDelay %d ms)" % args.retry_delay_ms)
    print("%-8s %14s %14s %8s" % ("retry", "schedule (ms)", "measured (ms)", "ratio"))
    for retry in range(1, len(attempts)):
        wanted = min(args.retry_delay_ms * 2 ** (retry - 1), 30000)
        measured = (attempts[retry] - attempts[retry - 1]) * 1000
        print("%-8d %14d %14.1f %8.3f" % (retry, wanted, measured, measured / wanted))
    if len(attempts) != args.retries + 1:
        print("FAILED: %d attempts seen, %d expected" % (len(attempts), args.retries + 1))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
