#!/usr/bin/python3
"""Reads one app's accessibility tree with pyatspi, independently of the host under test.

The real-app end-to-end tests use it to check what an app shows (text, states, windows) after
the host acted on it. Run it with /usr/bin/python3: the distribution's interpreter has pyatspi.

    atspi_probe.py --pid PID [--role ROLE] [--name NAME | --name-contains TEXT]
                   [--state STATE]... [--window-name NAME] [--min-count N] [--max-count N]
                   [--wait-ms MS] [--press]

Prints a JSON array of the matching nodes: role and name as AT-SPI gives them, states, the
text of nodes with a Text interface, extents in screen coordinates and the name of the
top-level window holding the node. Exits 0 when the number of matches lies within
[--min-count, --max-count] (polling up to --wait-ms for that), 1 when it does not, and 2 when
the app is not on the accessibility bus. --press performs action 0 of the first match (used
by the tests only to clean up after a failure, never to check the host).
"""

import argparse
import json
import sys
import time

import pyatspi

# Closed menus hold hundreds of items nobody can see; skipping them keeps a walk short.
PRUNED_WHEN_HIDDEN = {"menu", "popup menu"}


HUGE_CONTAINER = 2048


def state_names(node):
    names = []
    states = node.getState()
    for state in states.getStates():
        names.append(pyatspi.stateToString(state).replace("_", " ").lower())
    return sorted(names)


def node_text(node):
    try:
        text = node.queryText()
    except NotImplementedError:
        return None
    return text.getText(0, -1)


def node_extents(node):
    try:
        box = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    except NotImplementedError:
        return None
    return [box.x, box.y, box.width, box.height]


def find_app(pid):
    for app in pyatspi.Registry.getDesktop(0):
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:  # an app that went away while we listed them
            continue
    return None


def matches(node, role, states, args):
    if args.role and role != args.role:
        return False
    if args.name is not None and node.name != args.name:
        return False
    if args.name_contains is not None and args.name_contains not in (node.name or ""):
        return False
    return all(s in states for s in args.state)


def walk(app, args):
    found = []
    stack = []
    for i in range(app.childCount):
        child = app.getChildAtIndex(i)
        if child is not None:
            stack.append((child, child.name))
    stack.reverse()
    while stack:
        node, window = stack.pop()
        try:
            role = node.getRoleName()
            states = state_names(node)
        except Exception:  # a node that died during the walk
            continue
        if args.window_name is None or window == args.window_name:
            if matches(node, role, states, args):
                found.append((node, {
                    "role": role,
                    "name": node.name,
                    "states": states,
                    "text": node_text(node),
                    "extents": node_extents(node),
                    "window": window,
                }))
        if role in PRUNED_WHEN_HIDDEN and "showing" not in states:
            continue
        # A container with more children than the host ever lists (a spreadsheet's 2^31-1
        # cells, which the app builds one by one when asked): never walked, as the host does not.
        if node.childCount > HUGE_CONTAINER:
            continue
        children = []
        for i in range(node.childCount):
            child = node.getChildAtIndex(i)
            if child is not None:
                children.append((child, window))
        stack.extend(reversed(children))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--role")
    parser.add_argument("--name")
    parser.add_argument("--name-contains")
    parser.add_argument("--state", action="append", default=[])
    parser.add_argument("--window-name")
    parser.add_argument("--min-count", type=int, default=0)
    parser.add_argument("--max-count", type=int, default=sys.maxsize)
    parser.add_argument("--wait-ms", type=int, default=0)
    parser.add_argument("--press", action="store_true")
    args = parser.parse_args()

    deadline = time.monotonic() + args.wait_ms / 1000.0
    while True:
        app = find_app(args.pid)
        found = walk(app, args) if app is not None else []
        ok = app is not None and args.min_count <= len(found) <= args.max_count
        if ok or time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    if app is None:
        print("[]")
        print("no accessible app with pid %d" % args.pid, file=sys.stderr)
        return 2
    if args.press and found:
        found[0][0].queryAction().doAction(0)
    print(json.dumps([info for _, info in found], ensure_ascii=False))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
