#pragma once

#include "remote/RemoteTools.h"

#include <QJsonObject>
#include <QString>

/// The remote door's tools under Peekaboo's names, one file per family; the table that names them
/// and gives their schemas is RemoteTools.cpp.
namespace Remote::Peekaboo {

// Seeing (PeekabooSeeTools.cpp).
void see(const QJsonObject& a, Engine& engine, const ToolDone& done);
void image(const QJsonObject& a, Engine& engine, const ToolDone& done);

// Pointer and keyboard (PeekabooInputTools.cpp). `delivery` "clipboard" pastes.
void click(const QJsonObject& a, Engine& engine, const ToolDone& done);
void typeText(const QJsonObject& a, Engine& engine, const ToolDone& done, const QString& delivery);
void scroll(const QJsonObject& a, Engine& engine, const ToolDone& done);
void hotkey(const QJsonObject& a, Engine& engine, const ToolDone& done);
/// swipe and drag: a held button moved from one point to another.
void dragBetween(const QJsonObject& a, Engine& engine, const ToolDone& done, int defaultDurationMs);
void move(const QJsonObject& a, Engine& engine, const ToolDone& done);

// Apps, windows, menus and dialogs (PeekabooWindowTools.cpp).
void app(const QJsonObject& a, Engine& engine, const ToolDone& done);
void window(const QJsonObject& a, Engine& engine, const ToolDone& done);
void menu(const QJsonObject& a, Engine& engine, const ToolDone& done);
void dialog(const QJsonObject& a, Engine& engine, const ToolDone& done);
void list(const QJsonObject& a, Engine& engine, const ToolDone& done);
void permissionsOf(Engine& engine, const ToolDone& done);
/// The clipboard: get (read-only) or set (a side effect).
void clipboard(const QJsonObject& a, Engine& engine, const ToolDone& done);

// Waiting (PeekabooWaitTools.cpp).
void wait(const QJsonObject& a, Engine& engine, const ToolDone& done);
void sleep(const QJsonObject& a, Engine& engine, const ToolDone& done);

} // namespace Remote::Peekaboo
