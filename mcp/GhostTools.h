#pragma once

#include "mcp/HostLink.h"

#include <QJsonObject>

/// The ghost_* (and desktop_*) tools' handlers, one file per family; the table that names them
/// and gives their schemas is McpTools.cpp.
namespace Mcp::Ghost {

// Observe and find (GhostObserveTools.cpp).
QJsonObject contextTool(const QJsonObject& arguments, HostLink& host);
QJsonObject findTool(const QJsonObject& arguments, HostLink& host);
QJsonObject readTool(const QJsonObject& arguments, HostLink& host);
QJsonObject inspectTool(const QJsonObject& arguments, HostLink& host);
QJsonObject elementAtTool(const QJsonObject& arguments, HostLink& host);
QJsonObject screenshotTool(const QJsonObject& arguments, HostLink& host);

// The pointer (GhostPointerTools.cpp).
QJsonObject clickTool(const QJsonObject& arguments, HostLink& host);
QJsonObject scrollTool(const QJsonObject& arguments, HostLink& host);
QJsonObject hoverTool(const QJsonObject& arguments, HostLink& host);
QJsonObject longPressTool(const QJsonObject& arguments, HostLink& host);
QJsonObject dragTool(const QJsonObject& arguments, HostLink& host);

// The keyboard (GhostKeyboardTools.cpp).
QJsonObject typeTool(const QJsonObject& arguments, HostLink& host);
QJsonObject pressTool(const QJsonObject& arguments, HostLink& host);
QJsonObject hotkeyTool(const QJsonObject& arguments, HostLink& host);

// Windows (GhostWindowTools.cpp).
QJsonObject stateTool(const QJsonObject& arguments, HostLink& host);
QJsonObject focusTool(const QJsonObject& arguments, HostLink& host);
QJsonObject windowTool(const QJsonObject& arguments, HostLink& host);

// The clipboard and the displays (GhostClipboardTools.cpp), apps and file dialogs (GhostAppTools.cpp).
QJsonObject clipboardTool(const QJsonObject& arguments, HostLink& host);
QJsonObject displaysTool(const QJsonObject& arguments, HostLink& host);
QJsonObject appTool(const QJsonObject& arguments, HostLink& host);
QJsonObject fileDialogTool(const QJsonObject& arguments, HostLink& host);

// Waiting (GhostWaitTools.cpp).
QJsonObject waitTool(const QJsonObject& arguments, HostLink& host);

// Recipes (GhostRecipeTools.cpp).
QJsonObject recipesTool(const QJsonObject& arguments, HostLink& host);
QJsonObject runTool(const QJsonObject& arguments, HostLink& host);
QJsonObject recipeShowTool(const QJsonObject& arguments, HostLink& host);
QJsonObject recipeSaveTool(const QJsonObject& arguments, HostLink& host);
QJsonObject recipeDeleteTool(const QJsonObject& arguments, HostLink& host);

// Annotated screenshots (GhostAnnotateTools.cpp).
QJsonObject annotateTool(const QJsonObject& arguments, HostLink& host);

// What is on screen, from the tree and the pixels (GhostVisionTools.cpp).
QJsonObject parseScreenTool(const QJsonObject& arguments, HostLink& host);
QJsonObject groundTool(const QJsonObject& arguments, HostLink& host);

// The host itself: abort, evidence, status (DesktopStatusTools.cpp).
QJsonObject abortTool(const QJsonObject& arguments, HostLink& host);
QJsonObject evidenceTool(const QJsonObject& arguments, HostLink& host);
QJsonObject statusTool(const QJsonObject& arguments, HostLink& host);

} // namespace Mcp::Ghost
