#pragma once

#include "bridge/contract/Declaration.h"

#include <QHash>

// The declaration files, one per family of methods (methods/*.cpp), and the shared types.
namespace Contract::Families {
QHash<QString, Node> sharedTypes();
QList<Method> host();    // health, doctor, stop, resume, abort, rpc.discover, gui.open
QList<Method> observe(); // observe, find, dumpTree, capture, readText, elementAt, windows
QList<Method> act();     // click, typeText, hotkey, scroll, menuPick, pointer, window
QList<Method> wait();    // waitUntil
QList<Method> confirm(); // confirm.issue
QList<Method> remote();  // remote.status, remote.connect, remote.disconnect, remote.forget
QList<Method> events();  // subscribe, unsubscribe
QList<Method> tools();   // clipboard, app
} // namespace Contract::Families
