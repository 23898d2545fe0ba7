#!/usr/bin/python3
"""The host's memory under load: idle RSS, the peak during a burst of bridge requests and
desktop.find calls against the Qt fixture, and how fast it gives memory back while idle.

Needs a desktop (DISPLAY, the session bus with AT-SPI): bench/memory-bench starts a private
headless one; the ctest entry Bench.Memory runs inside the one scripts/test started. It starts
its own fixture app, host and baseline process, each with its own socket, workspace and data
directory in a temp dir, and stops them again.

It prints figures and asserts nothing about memory or time. It fails (status 1) only on
functional errors: the host died, a connection was dropped, a request went unanswered or an
answer was not a JSON-RPC answer to what was sent. Status 77: no desktop to run in.
"""
import argparse
import ctypes
import json
import multiprocessing
import os
import random
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

SKIP = 77
LIMIT_MB = 60


def _die_with_parent():
    # Children get SIGTERM if this script dies (ctest's timeout, Ctrl-C), so nothing survives it.
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def status_kb(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def private_dirty_kb(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Private_Dirty:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def mb(kb):
    return "%.1f" % (kb / 1024.0) if kb is not None else "-"


def meta(workspace):
    return {"schemaVersion": 1, "requestId": str(uuid.uuid4()), "workspacePath": workspace, "timeoutMs": 60000}


# ---------------------------------------------------------------------------------------------
# Request mix. Each entry makes one line and says what its answer must look like:
#   ("id", n)      one answer object with that id
#   ("null", n)    one answer object with id null (a line the host cannot parse)
#   ("batch", ids) one array holding one answer per id (None: an answer with id null)
# ---------------------------------------------------------------------------------------------

class Mix:
    def __init__(self, workspace, rng):
        self.workspace = workspace
        self.rng = rng
        self.next_id = 1
        self.counts = {}

    def _id(self):
        self.next_id += 1
        return self.next_id

    def _count(self, kind, n=1):
        self.counts[kind] = self.counts.get(kind, 0) + n

    def _request(self, method, params, rid):
        return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}

    def _member(self):
        """One request object (for a line of its own or a batch), its id and its kind."""
        r = self.rng.random()
        rid = self._id()
        ws = self.workspace
        if r < 0.55:
            return self._request("desktop.health", {"meta": meta(ws)}, rid), rid, "health"
        if r < 0.65:
            return self._request("desktop.%s" % self.rng.choice(["fly", "observ", "health2", "findAll"]),
                                 {"meta": meta(ws)}, rid), rid, "unknown method"
        if r < 0.80:
            bad = self.rng.choice([
                {"meta": dict(meta(ws), timeoutMs="soon")},
                {"meta": meta(ws), "selector": "Button 1"},
                {"meta": meta(ws), "selector": {"byRole": 7}},
                {"meta": meta(ws), "route": {"app": {"pid": "abc"}}, "selector": {"byRole": "AXButton"}},
                {"meta": dict(meta(ws), requestId="not-a-uuid at all")},
                {"meta": meta(ws), "selector": {}},
                {"selector": {"byRole": "AXButton"}},
            ])
            method = "desktop.health" if "selector" not in bad and "route" not in bad else "desktop.find"
            return self._request(method, bad, rid), rid, "wrong params"
        if r < 0.88:
            # Refused before anything runs: no confirmation, so no side effect.
            return self._request("desktop.click", {"meta": meta(ws),
                                                   "target": {"selector": {"byRole": "AXButton",
                                                                           "titleEquals": "Button 1"}}},
                                 rid), rid, "click unconfirmed"
        if r < 0.96:
            return self._request("desktop.abort", {"meta": meta(ws), "executionId": str(uuid.uuid4())},
                                 rid), rid, "abort unknown"
        return self._request("desktop.doctor", {"meta": meta(ws)}, rid), rid, "doctor"

    def line(self):
        """(bytes, expectation, requests it counts for)"""
        r = self.rng.random()
        if r < 0.10:
            self._count("malformed")
            raw = self.rng.choice([b"{not json", b"\xff\xfe\xfa", b"42", b"[]", b"{}", b'"desktop.health"',
                                   b'{"jsonrpc":"1.0","id":null,"method":"desktop.health"}',
                                   b'{"jsonrpc":"2.0","method":7,"id":null}'])
            return raw + b"\n", ("null", 1), 1
        if r < 0.15:
            members, ids = [], []
            for _ in range(self.rng.randint(2, 6)):
                if self.rng.random() < 0.15:
                    members.append(42)  # an invalid member: answered with id null
                    ids.append(None)
                    self._count("malformed")
                else:
                    body, rid, kind = self._member()
                    members.append(body)
                    ids.append(rid)
                    self._count(kind)
            self._count("batches")
            return json.dumps(members).encode() + b"\n", ("batch", ids), len(ids)
        body, rid, kind = self._member()
        self._count(kind)
        return json.dumps(body).encode() + b"\n", ("id", rid), 1


class Conn:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.sock.setblocking(False)
        self.inbuf = b""
        self.outbuf = b""
        self.expect_ids = {}   # id -> expectation of a batch or single answer
        self.expect_null = 0
        self.batches = []      # expectations of batch answers, in order (answered in order per line)
        self.outstanding = 0
        self.sent_lines = 0

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def request_worker(index, path, workspace, target, connections, window, churn_every, deadline, out):
    """One client process sending `target` requests (a batch counts as its members) over
    `connections` connections to the host, each with up to `window` lines in flight. Every
    `churn_every` lines one connection is closed (once answered) and a new one opened."""
    rng = random.Random(1000 + index)
    mix = Mix(workspace, rng)
    sel = selectors.DefaultSelector()
    conns = []
    errors = []
    answered = 0
    requests = 0
    sent = 0
    opened = 0

    def open_conn():
        nonlocal opened
        c = Conn(path)
        opened += 1
        sel.register(c.sock, selectors.EVENT_READ, c)
        conns.append(c)
        return c

    for _ in range(connections):
        open_conn()
    retiring = []
    since_churn = 0
    while True:
        if time.monotonic() > deadline:
            # The budget is over: send no more, but every line sent must still be answered.
            target = requests
        for c in conns:
            while requests < target and c.outstanding < window:
                raw, exp, n = mix.line()
                c.outbuf += raw
                c.outstanding += 1
                c.sent_lines += 1
                sent += 1
                requests += n
                since_churn += 1
                kind = exp[0]
                if kind == "id":
                    c.expect_ids[exp[1]] = "id"
                elif kind == "null":
                    c.expect_null += 1
                else:
                    c.batches.append(exp[1])
            if c.outbuf:
                try:
                    n = c.sock.send(c.outbuf)
                    c.outbuf = c.outbuf[n:]
                except BlockingIOError:
                    pass
                except OSError as e:
                    errors.append("send failed: %s" % e)
                    out.put((index, requests, answered, sent, opened, mix.counts, errors))
                    return
        if churn_every and since_churn >= churn_every and requests < target:
            since_churn = 0
            retiring.append(conns.pop(0))
            open_conn()
        for c in list(retiring):
            if c.outstanding == 0 and not c.outbuf:
                sel.unregister(c.sock)
                c.close()
                retiring.remove(c)
        active = conns + retiring
        if requests >= target and all(c.outstanding == 0 and not c.outbuf for c in active):
            break
        events = sel.select(timeout=30)
        if not events:
            errors.append("no answer for 30 s (%d lines outstanding)" % sum(c.outstanding for c in active))
            break
        for key, _ in events:
            c = key.data
            try:
                chunk = c.sock.recv(1 << 20)
            except BlockingIOError:
                continue
            except OSError as e:
                chunk = b""
                errors.append("recv failed: %s" % e)
            if not chunk:
                errors.append("the host closed a connection with %d lines unanswered" % c.outstanding)
                sel.unregister(c.sock)
                c.close()
                if c in conns:
                    conns.remove(c)
                if c in retiring:
                    retiring.remove(c)
                if not conns:
                    out.put((index, requests, answered, sent, opened, mix.counts, errors))
                    return
                continue
            c.inbuf += chunk
            while b"\n" in c.inbuf:
                line, c.inbuf = c.inbuf.split(b"\n", 1)
                try:
                    answer = json.loads(line)
                except ValueError:
                    errors.append("an answer is not JSON: %r" % line[:200])
                    continue
                c.outstanding -= 1
                if isinstance(answer, list):
                    if not c.batches:
                        errors.append("an unexpected batch answer: %r" % line[:200])
                        continue
                    ids = c.batches.pop(0)
                    got = [a.get("id") for a in answer]
                    if got != ids:
                        errors.append("a batch answer's ids %r are not %r" % (got[:8], ids[:8]))
                    answered += len(answer)
                    continue
                rid = answer.get("id")
                if ("result" in answer) == ("error" in answer) or answer.get("jsonrpc") != "2.0":
                    errors.append("not a JSON-RPC answer: %r" % line[:200])
                if rid is None:
                    if c.expect_null <= 0:
                        errors.append("an unexpected answer with id null: %r" % line[:200])
                    c.expect_null -= 1
                elif c.expect_ids.pop(rid, None) is None:
                    errors.append("an answer to an id never sent: %r" % line[:200])
                answered += 1
        if len(errors) > 20:
            break
    for c in conns + retiring:
        c.close()
    out.put((index, requests, answered, sent, opened, mix.counts, errors))


def find_worker(path, workspace, pid, grid, finds, connections, deadline, out):
    """desktop.find through `connections` connections, one in flight on each, with distinct
    selectors. Every find writes its evidence (ax.json of the whole tree and more); each
    execution's directory is removed once answered, so the disk holds a few at a time."""
    rng = random.Random(7)
    sel = selectors.DefaultSelector()
    conns = []
    for _ in range(connections):
        c = Conn(path)
        c.sock.setblocking(True)
        sel.register(c.sock, selectors.EVENT_READ, c)
        conns.append(c)
    errors = []
    sent = done = matched_total = 0
    evidence_bytes = 0
    evidence_sampled = 0
    kinds = {}

    def selector():
        r = rng.random()
        n = rng.randrange(grid)
        route = {"app": {"pid": pid}}
        if r < 0.40:
            kind, s = "titleEquals", {"byRole": "AXButton", "titleEquals": "Button %d" % n, "caseSensitive": True}
        elif r < 0.65:
            kind, s = "titleContains", {"titleContains": "utton %d" % n, "limit": rng.choice([1, 5, 10, 50])}
        elif r < 0.80:
            kind, s = "titleMatches", {"byRole": "AXButton", "titleMatches": "^Button %d[0-9]?$" % (n % 100)}
        elif r < 0.88:
            kind, s = "no match", {"titleEquals": "Nothing %s" % uuid.uuid4().hex[:8]}
        elif r < 0.95:
            kind, s = "byRole", {"byRole": rng.choice(["AXButton", "AXTextField", "AXCheckBox", "AXStaticText",
                                                      "scroll pane"]), "limit": rng.choice([1, 10, 100])}
        else:
            # Reads the text of every node.
            kind, s = "valueContains", {"valueContains": "%d" % n}
        if rng.random() < 0.2:
            s["visibleOnly"] = True
        kinds[kind] = kinds.get(kind, 0) + 1
        return {"route": route, "selector": s}

    def send(c):
        nonlocal sent
        rid = sent + 1
        params = selector()
        params["meta"] = meta(workspace)
        c.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": rid, "method": "desktop.find",
                                   "params": params}).encode() + b"\n")
        c.outstanding = 1
        c.expect_ids = {rid: True}
        sent += 1

    for c in conns:
        if sent < finds:
            send(c)
    while any(c.outstanding for c in conns):
        events = sel.select(timeout=70)
        if not events:
            errors.append("no find answered for 70 s")
            break
        for key, _ in events:
            c = key.data
            chunk = c.sock.recv(1 << 20)
            if not chunk:
                errors.append("the host closed a find connection")
                c.outstanding = 0
                sel.unregister(c.sock)
                continue
            c.inbuf += chunk
            if b"\n" not in c.inbuf:
                continue
            line, c.inbuf = c.inbuf.split(b"\n", 1)
            answer = json.loads(line)
            if answer.get("id") not in c.expect_ids:
                errors.append("a find answer with the wrong id: %r" % line[:200])
            c.outstanding = 0
            done += 1
            result = answer.get("result")
            evidence_dir = None
            if result is not None:
                matched_total += result.get("matched", 0)
                evidence_dir = result.get("evidence", {}).get("dir")
            else:
                err = answer.get("error", {})
                evidence_dir = err.get("details", {}).get("evidenceDir")
                kinds["error " + str(err.get("code"))] = kinds.get("error " + str(err.get("code")), 0) + 1
            if evidence_dir and os.path.isdir(evidence_dir):
                if done % 100 == 1:
                    for root, _, files in os.walk(evidence_dir):
                        evidence_bytes += sum(os.path.getsize(os.path.join(root, f)) for f in files)
                    evidence_sampled += 1
                shutil.rmtree(evidence_dir, ignore_errors=True)
            if sent < finds and time.monotonic() < deadline:
                send(c)
    for c in conns:
        c.close()
    out.put(("finds", done, sent, matched_total, kinds, evidence_bytes / max(1, evidence_sampled), errors))


# ---------------------------------------------------------------------------------------------

class Procs:
    def __init__(self):
        self.procs = []

    def start(self, args, **kw):
        p = subprocess.Popen(args, preexec_fn=_die_with_parent, **kw)
        self.procs.append(p)
        return p

    def stop_all(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def wait_for(predicate, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


class Sampler(threading.Thread):
    """Samples the host's RSS every 100 ms for the peak (VmHWM also gives it, exactly)."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            rss = status_kb(self.pid, "VmRSS")
            if rss:
                self.peak = max(self.peak, rss)
            self.stop.wait(0.1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the build directory (build/default)")
    parser.add_argument("--requests", type=int, default=100000)
    parser.add_argument("--finds", type=int, default=20000)
    parser.add_argument("--grid", type=int, default=500, help="buttons in the fixture's grid")
    parser.add_argument("--clients", type=int, default=3, help="client processes sending requests")
    parser.add_argument("--connections", type=int, default=8, help="connections of each client process")
    parser.add_argument("--window", type=int, default=16, help="lines in flight on each connection")
    parser.add_argument("--find-connections", type=int, default=3)
    parser.add_argument("--settle", type=float, default=5.0, help="seconds of idling before the idle sample")
    parser.add_argument("--idle", type=int, default=60, help="seconds of idling sampled after the burst")
    parser.add_argument("--budget", type=float, default=0,
                        help="seconds the burst may take; past it no new request or find is sent "
                             "(the counts used are printed). 0: no budget")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir (host log, events)")
    parser.add_argument("--host-env", action="append", default=[], metavar="NAME=VALUE",
                        help="set in the host's environment (e.g. GLIBC_TUNABLES=glibc.malloc.arena_max=2)")
    args = parser.parse_args()

    if not os.environ.get("DISPLAY") or not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        print("memory bench: no desktop (DISPLAY and DBUS_SESSION_BUS_ADDRESS); run bench/memory-bench, "
              "which starts one, or run it inside scripts/test")
        return SKIP

    host_bin = os.path.join(args.bin, "app", "msgcode-desktop-host")
    fixture_bin = os.path.join(args.bin, "tests", "fixtures", "target-app", "mdh-target-app")
    floor_bin = os.path.join(args.bin, "bench", "mdh_memory_floor")
    for b in (host_bin, fixture_bin, floor_bin):
        if not os.access(b, os.X_OK):
            print("memory bench: %s is missing; build first" % b)
            return 1

    state = tempfile.mkdtemp(prefix="mdh-mem.")
    procs = Procs()
    failures = []
    try:
        workspace = os.path.join(state, "ws")
        os.makedirs(workspace)
        sock = os.path.join(state, "host.sock")
        env = dict(os.environ)
        env.pop("QT_LOGGING_RULES", None)
        env["WORKSPACE_ROOT"] = workspace
        env["MSGCODE_DESKTOP_SOCKET"] = sock

        events_path = os.path.join(state, "fixture.events")
        with open(events_path, "wb") as events:
            fixture = procs.start([fixture_bin, "--grid", str(args.grid), "--title", "Memory bench"],
                                  stdout=events, stderr=subprocess.DEVNULL, env=env)
        if not wait_for(lambda: b'"ready"' in open(events_path, "rb").read(), 20):
            print("memory bench: the fixture app did not start")
            return 1

        floor_sock = os.path.join(state, "floor.sock")
        floor = procs.start([floor_bin, floor_sock], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

        host_env = dict(env)
        for item in args.host_env:
            name, _, value = item.partition("=")
            host_env[name] = value
        host_log = open(os.path.join(state, "host.log"), "wb")
        t0 = time.monotonic()
        host = procs.start([host_bin, "--headless", "--socket", sock, "--workspace-root", workspace,
                            "--data-dir", os.path.join(state, "data")],
                           stdout=host_log, stderr=subprocess.STDOUT, env=host_env)
        if not wait_for(lambda: os.path.exists(sock) or host.poll() is not None, 20) or host.poll() is not None:
            print("memory bench: the host did not start:")
            print(open(os.path.join(state, "host.log"), errors="replace").read()[-3000:])
            return 1
        startup_s = time.monotonic() - t0
        wait_for(lambda: os.path.exists(floor_sock), 10)

        time.sleep(args.settle)
        idle_kb = status_kb(host.pid, "VmRSS")
        idle_dirty = private_dirty_kb(host.pid)
        floor_kb = status_kb(floor.pid, "VmRSS")
        floor_dirty = private_dirty_kb(floor.pid)
        fixture_kb = status_kb(fixture.pid, "VmRSS")

        # The burst: request clients and finds at the same time.
        queue = multiprocessing.Queue()
        deadline = time.monotonic() + args.budget if args.budget > 0 else float("inf")
        per_client = [args.requests // args.clients + (1 if i < args.requests % args.clients else 0)
                      for i in range(args.clients)]
        workers = []
        burst_start = time.monotonic()
        for i in range(args.clients):
            w = multiprocessing.Process(target=request_worker,
                                        args=(i, sock, workspace, per_client[i], args.connections, args.window,
                                              2000, deadline, queue))
            w.start()
            workers.append(w)
        fw = None
        if args.finds > 0:
            fw = multiprocessing.Process(target=find_worker,
                                         args=(sock, workspace, fixture.pid, args.grid, args.finds,
                                               args.find_connections, deadline, queue))
            fw.start()
        sampler = Sampler(host.pid)
        sampler.start()
        results = []
        request_end = find_end = None
        expected = len(workers) + (1 if fw else 0)
        while len(results) < expected:
            try:
                item = queue.get(timeout=1)
            except Exception:
                if host.poll() is not None:
                    failures.append("the host died during the burst (status %s)" % host.returncode)
                    break
                continue
            results.append(item)
            now = time.monotonic()
            if item[0] == "finds":
                find_end = now
            elif sum(1 for r in results if r[0] != "finds") == len(workers):
                request_end = now
        for w in workers + ([fw] if fw else []):
            w.join(timeout=10)
            if w.is_alive():
                w.terminate()
        burst_end = time.monotonic()
        sampler.stop.set()
        sampler.join()
        end_kb = status_kb(host.pid, "VmRSS")
        end_dirty = private_dirty_kb(host.pid)
        hwm_kb = status_kb(host.pid, "VmHWM") or 0
        peak_kb = max(sampler.peak, hwm_kb)
        if host.poll() is not None:
            failures.append("the host exited (status %s)" % host.returncode)

        requests = answered = lines_sent = connections_opened = 0
        counts = {}
        finds_done = finds_sent = matched = 0
        find_kinds = {}
        evidence_avg = 0
        for item in results:
            if item[0] == "finds":
                _, finds_done, finds_sent, matched, find_kinds, evidence_avg, errors = item
                failures.extend("find: " + e for e in errors)
                if finds_done != finds_sent:
                    failures.append("%d of %d finds unanswered" % (finds_sent - finds_done, finds_sent))
            else:
                _, r, a, s, o, c, errors = item
                requests += r
                answered += a
                lines_sent += s
                connections_opened += o
                for k, v in c.items():
                    counts[k] = counts.get(k, 0) + v
                failures.extend("client: " + e for e in errors)
        if requests != answered:
            failures.append("%d of %d requests unanswered" % (requests - answered, requests))
        if len(results) < expected:
            failures.append("%d load process(es) did not report" % (expected - len(results)))

        # Idle: one sample a second.
        idle_samples = []
        below_at = 0 if end_kb is not None and end_kb <= LIMIT_MB * 1024 else None
        idle_start = time.monotonic()
        for second in range(1, args.idle + 1):
            time.sleep(max(0.0, idle_start + second - time.monotonic()))
            kb = status_kb(host.pid, "VmRSS")
            if kb is None:
                failures.append("the host died while idling")
                break
            idle_samples.append(kb)
            if below_at is None and kb <= LIMIT_MB * 1024:
                below_at = second
        after_dirty = private_dirty_kb(host.pid)
        final_fixture_kb = status_kb(fixture.pid, "VmRSS")

        def idle_at(s):
            return idle_samples[s - 1] if len(idle_samples) >= s else None

        req_s = requests / (request_end - burst_start) if request_end else 0
        find_s = finds_done / (find_end - burst_start) if find_end else 0
        print()
        print("Host memory (msgcode-desktop-host --headless), Qt fixture with a %d-button grid (%d-node tree)."
              % (args.grid, args.grid + 33))
        reduced = ""
        if requests < args.requests or finds_sent < args.finds:
            reduced = "  (reduced from %d requests and %d finds: the %g s budget ran out)" % (
                args.requests, args.finds, args.budget)
        print("Burst: %d requests in %d lines over %d connections from %d client processes (%d opened in all),"
              % (requests, lines_sent, args.clients * args.connections, args.clients, connections_opened))
        print("       and %d desktop.find on %d connections, at the same time.%s" % (
            finds_done, args.find_connections, reduced))
        print("Request mix: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
        print("Find mix:    " + ", ".join("%s %d" % kv for kv in sorted(find_kinds.items()))
              + "; %d matches in all; evidence ~%.0f KB per find (removed once answered)"
              % (matched, evidence_avg / 1024.0))
        print()
        rows = [
            ("idle RSS (after %g s)" % args.settle, mb(idle_kb), "Private_Dirty %s MB" % mb(idle_dirty)),
            ("peak RSS during the burst", mb(peak_kb), "VmHWM"),
            ("RSS at the end of the burst", mb(end_kb), "Private_Dirty %s MB" % mb(end_dirty)),
        ] + [("RSS after %d s idle" % t, mb(idle_at(t)), "") for t in (10, 30) if t < args.idle] + [
            ("RSS after %d s idle" % args.idle, mb(idle_at(args.idle)), "Private_Dirty %s MB" % mb(after_dirty)),
        ]
        print("%-34s %10s  %s" % ("figure", "MB", ""))
        for name, value, note in rows:
            print("%-34s %10s  %s" % (name, value, note))
        print("%-34s %10s" % ("seconds idle to <= %d MB" % LIMIT_MB,
                              ("%d" % below_at) if below_at is not None else "not within %d s" % args.idle)
              + ("  (already at the end of the burst)" if below_at == 0 else ""))
        print("%-34s %10.0f" % ("requests/s", req_s))
        print("%-34s %10.1f" % ("finds/s", find_s))
        print("%-34s %10.1f" % ("host start to serving, s", startup_s))
        print("%-34s %10.1f" % ("burst, s", burst_end - burst_start))
        print()
        print("Baseline, same run: mdh_memory_floor, a headless Qt process with the host's Qt libraries")
        print("(QtCore, QtNetwork, QtDBus) on the session bus, serving a QLocalServer and otherwise idle:")
        print("  RSS %s MB (Private_Dirty %s MB); host idle / floor = %.2fx; host after %d s idle / floor = %s"
              % (mb(floor_kb), mb(floor_dirty), idle_kb / floor_kb if floor_kb else 0, args.idle,
                 "%.2fx" % (idle_samples[-1] / floor_kb) if idle_samples and floor_kb else "-"))
        print("  The fixture app (Qt Widgets, %d buttons): %s MB idle, %s MB after the burst."
              % (args.grid, mb(fixture_kb), mb(final_fixture_kb)))
        print("Targets (issue: Hardening, memory): idle <= 40 MB headless; <= %d MB within 60 s of idling after "
              "100 000 requests and 20 000 finds. Figures only: nothing here is asserted." % LIMIT_MB)
        if host.poll() is not None:
            failures.append("the host exited (status %s)" % host.returncode)
        if failures:
            print()
            print("FAILED (functional):")
            for f in list(dict.fromkeys(failures))[:30]:
                print("  " + f)
            print("host log (tail):")
            host_log.flush()
            print(open(os.path.join(state, "host.log"), errors="replace").read()[-3000:])
            return 1
        return 0
    finally:
        procs.stop_all()
        if args.keep:
            print("kept", state)
        else:
            shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
