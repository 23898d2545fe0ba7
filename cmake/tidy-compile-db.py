#!/usr/bin/python3
"""Writes OUT_DIR/compile_commands.json: IN's compile commands without the precompiled header
(`-include .../cmake_pch.hxx`, `-Winvalid-pch`). clang-tidy cannot read gcc's .gch files, and
every source includes what it uses, so the commands stand without it (cmake/Lint.cmake).

    tidy-compile-db.py IN.json OUT_DIR
"""
import json
import os
import shlex
import sys


def strip(arguments):
    out = []
    skip = False
    for i, arg in enumerate(arguments):
        if skip:
            skip = False
            continue
        if arg == "-include" and i + 1 < len(arguments) and "cmake_pch" in arguments[i + 1]:
            skip = True
            continue
        if arg.startswith("-include") and "cmake_pch" in arg:
            continue
        if arg == "-Winvalid-pch":
            continue
        out.append(arg)
    return out


def main():
    with open(sys.argv[1]) as f:
        entries = json.load(f)
    for entry in entries:
        if "arguments" in entry:
            entry["arguments"] = strip(entry["arguments"])
        else:
            entry["command"] = shlex.join(strip(shlex.split(entry["command"])))
    os.makedirs(sys.argv[2], exist_ok=True)
    with open(os.path.join(sys.argv[2], "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)


if __name__ == "__main__":
    main()
