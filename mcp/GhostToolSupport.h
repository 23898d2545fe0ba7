#pragma once

#include "mcp/HostLink.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <optional>
#include <variant>

/// What the ghost_* tool families share: ghost-os's result shapes, its arguments read into the
/// host's selectors and routes, and the host's answers worded for a model.
namespace Mcp::Ghost {

/// ghost-os's screenshot width: images answered to a model are at most this wide unless the
/// caller asks for full_resolution (cua-driver measured clicks landing short off larger ones).
constexpr int kModelImageWidth = 1280;

/// `png` sized for a model: scaled down to kModelImageWidth when wider (unless `fullResolution`),
/// `scale` set to image pixels per screen pixel. The same bytes when nothing changes.
QByteArray sizedForModel(const QByteArray& png, bool fullResolution, double* scale);

/// {success: false, error, suggestion?} as a tool result.
QJsonObject failure(const QString& error, const QString& suggestion = {});
/// {success: true, data} as a tool result.
QJsonObject success(const QJsonObject& data);
/// A selector as a sentence: "titled 'Send' (role AXButton)".
QString describeSelector(const QJsonObject& selector);
/// What a model can act on when the host refused or failed: the code, the message, the facts of
/// the details (what was not found, which dialog blocks, what the host is busy with) and what to
/// do, all in the `error` string (msgcode passes on that string alone), the suggestion and
/// details beside it.
QJsonObject hostFailure(const QJsonObject& response);
/// The route ghost-os's `app` names; empty when none was given.
QJsonObject routeFor(const QJsonObject& arguments);
/// The selector ghost-os's locating arguments describe; empty when none was given.
QJsonObject selectorFor(const QJsonObject& arguments, const QString& queryKey = QStringLiteral("query"));
/// `params` with the route of `arguments`, when they name an app.
QJsonObject withRoute(QJsonObject params, const QJsonObject& arguments);
/// A route naming the app and, when given, a window whose title contains `window`.
QJsonObject routeWithWindow(const QJsonObject& arguments, const QString& windowKey = QStringLiteral("window"));
/// A number argument (ghost-os takes integers or doubles alike); nullopt when absent.
std::optional<double> numberArg(const QJsonObject& arguments, const QString& key);
/// {x, y} rounded, when both are given.
std::optional<QJsonObject> pointArg(const QJsonObject& arguments, const QString& xKey, const QString& yKey);
/// ghost-os's position {x, y} and size {width, height} of a host frame, added to `out`.
QJsonObject withGeometry(QJsonObject out, const QJsonObject& frame);
/// An element reference as ghost-os shows an element.
QJsonObject elementData(const QJsonObject& ref);
/// {dir, execution_id} of a result.
QJsonObject evidenceOf(const QJsonObject& result);
/// The root node of a desktop.dumpTree response's tree.
QJsonObject treeRoot(const QJsonObject& response);
/// Every node of a tree, depth first.
void walk(const QJsonObject& node, const std::function<void(const QJsonObject&)>& visit);
/// The effect as the host saw it (DoorKit::Outcome): success only for an effect with evidence for it.
QJsonObject sideEffectResult(const QJsonObject& response, const QString& doneKey, QJsonObject data);
/// `button`, left by default.
QString buttonArg(const QJsonObject& arguments);
/// A window of desktop.windows as ghost-os shows one.
QJsonObject windowData(const QJsonObject& window);
/// desktop.windows, topmost first; of one app when `app` is given. A tool result on failure.
std::variant<QJsonArray, QJsonObject> listWindows(const QString& app, HostLink& host);

} // namespace Mcp::Ghost
