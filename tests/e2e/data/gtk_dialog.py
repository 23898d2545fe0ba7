#!/usr/bin/python3
"""A GTK 3 dialog, as an app shows one (tests/e2e/EventsDesktopTest.cpp).

    gtk_dialog.py [--title TITLE] [--on-request]

Shows a message dialog titled TITLE (default "Delete the file?") with Cancel and Delete; with
--on-request only once a line "show" arrives on stdin (it prints {"event":"started"} when it
waits for it, so that a test can have the window appear at a moment of its choosing). Prints
{"event":"ready","title":...} once it is shown, {"event":"response","id":N} when a button is
pressed (and then exits), and exits on SIGTERM like any app that is quit.
"""
import argparse
import json
import signal
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--title", default="Delete the file?")
parser.add_argument("--on-request", action="store_true")
args = parser.parse_args()

import gi  # noqa: E402

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def emit(event, **fields):
    print(json.dumps(dict(event=event, **fields)), flush=True)


dialog = Gtk.MessageDialog(message_type=Gtk.MessageType.QUESTION, buttons=Gtk.ButtonsType.NONE,
                           text="The file will be gone for good.")
dialog.set_title(args.title)
dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
dialog.add_button("Delete", Gtk.ResponseType.ACCEPT)


def responded(_dialog, response):
    emit("response", id=int(response))
    Gtk.main_quit()


dialog.connect("response", responded)
dialog.connect("map-event", lambda *_: emit("ready", title=args.title))
GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, Gtk.main_quit)


def request(channel, _condition):
    line = channel.readline()
    if not line:
        Gtk.main_quit()
        return False
    if line.strip() == "show":
        dialog.show_all()
    return True


if args.on_request:
    GLib.io_add_watch(GLib.IOChannel.unix_new(sys.stdin.fileno()), GLib.IO_IN | GLib.IO_HUP, request)
    emit("started")
else:
    dialog.show_all()
Gtk.main()
sys.exit(0)
