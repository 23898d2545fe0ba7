#!/usr/bin/python3
"""A sign-in form in GTK 3 or GTK 4 for the secure-field tests (tests/e2e/SecureFieldTest.cpp).

    secure_form.py --gtk 3|4 [--label NAME] [--title TITLE]

Shows a "User" entry and a hidden-text entry labelled NAME (default "Kennwort": a password
field whose label has no English word for it). Prints {"event":"ready"} once shown and
{"event":"textChanged","name":...,"length":N} on every change; never the hidden text itself.
"""
import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--gtk", choices=["3", "4"], required=True)
parser.add_argument("--label", default="Kennwort")
parser.add_argument("--title", default="Secure form")
args = parser.parse_args()

import gi  # noqa: E402

gi.require_version("Gtk", args.gtk + ".0")
from gi.repository import GLib, Gtk  # noqa: E402


def emit(event, **fields):
    print(json.dumps(dict(event=event, **fields)), flush=True)


def watch(entry, name, secret):
    def changed(widget, *_):
        text = widget.get_text()
        fields = {"name": name, "length": len(text)}
        if not secret:
            fields["text"] = text
        emit("textChanged", **fields)
    entry.connect("changed", changed)


def build(window):
    grid = Gtk.Grid(column_spacing=8, row_spacing=8)
    user_label = Gtk.Label(label="User")
    user = Gtk.Entry()
    watch(user, "User", False)
    secret_label = Gtk.Label(label=args.label)
    if args.gtk == "4":
        secret = Gtk.PasswordEntry()
    else:
        secret = Gtk.Entry()
        secret.set_visibility(False)
    watch(secret, args.label, True)
    grid.attach(user_label, 0, 0, 1, 1)
    grid.attach(user, 1, 0, 1, 1)
    grid.attach(secret_label, 0, 1, 1, 1)
    grid.attach(secret, 1, 1, 1, 1)
    if args.gtk == "4":
        user.update_property([Gtk.AccessibleProperty.LABEL], ["User"])
        secret.update_property([Gtk.AccessibleProperty.LABEL], [args.label])
        window.set_child(grid)
    else:
        user.get_accessible().set_name("User")
        secret.get_accessible().set_name(args.label)
        window.add(grid)


if args.gtk == "4":
    app = Gtk.Application(application_id=None)

    def activate(application):
        window = Gtk.ApplicationWindow(application=application, title=args.title)
        window.set_default_size(360, 120)
        build(window)
        window.present()
        GLib.timeout_add(300, lambda: emit("ready") or False)

    app.connect("activate", activate)
    sys.exit(app.run([sys.argv[0]]))
else:
    window = Gtk.Window(title=args.title)
    window.set_default_size(360, 120)
    window.connect("destroy", Gtk.main_quit)
    build(window)
    window.show_all()
    GLib.timeout_add(300, lambda: emit("ready") or False)
    Gtk.main()
