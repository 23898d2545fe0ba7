#!/usr/bin/python3
"""A window that stays above the others (as a floating palette or a video call does), for the
occlusion tests: cover_window.py X Y WIDTH HEIGHT TITLE. Prints "shown" once it is mapped."""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402


def main():
    x, y, width, height = (int(v) for v in sys.argv[1:5])
    title = sys.argv[5]
    window = Gtk.Window(title=title)
    window.set_keep_above(True)
    window.set_default_size(width, height)
    window.move(x, y)
    window.add(Gtk.Label(label=title))
    window.connect("destroy", Gtk.main_quit)

    def shown(*_):
        print("shown", flush=True)

    window.connect("map-event", shown)
    window.show_all()
    GLib.timeout_add_seconds(120, Gtk.main_quit)
    Gtk.main()


if __name__ == "__main__":
    main()
