// AtspiTreeReader, second room: the details of nodes a pass already found (states, frames,
// interfaces, actions, texts, descriptions, label relations). The passes that find the nodes
// (the cache, the walk, a table's visible cells) are in AtspiTreeReader.cpp.
#include "automation/backends/atspi/AtspiTreeReader.h"

#include "automation/backends/atspi/AtspiApps.h"
#include "automation/backends/atspi/AtspiRoles.h"
#include "automation/backends/atspi/X11Session.h"

#include <QDBusArgument>
#include <QDBusMessage>

namespace Automation {

using Atspi::actionNames;
using Atspi::actionNamesUsable;
using Atspi::App;
using Atspi::extents;
using Atspi::firstArgument;
using Atspi::Interface;
using Atspi::Ref;
using Atspi::refFromArgument;
using Atspi::uintList;
using Atspi::unwrap;

QStringList AtspiTreeReader::actionNamesOf(const Ref& ref, const App& app, const CallContext& context)
{
    auto list = m_bus.send(ref, Interface::Action, QStringLiteral("GetActions"), {}, m_bus.callTimeout(context));
    QStringList names;
    if (!m_bus.wait(list, context, QStringLiteral("Action.GetActions"), &app))
        names = actionNames(firstArgument(list));
    if (actionNamesUsable(names) && !names.isEmpty())
        return names;
    auto count =
        m_bus.send(ref, Interface::Properties, QStringLiteral("Get"),
                   {QStringLiteral("org.a11y.atspi.Action"), QStringLiteral("NActions")}, m_bus.callTimeout(context));
    if (m_bus.wait(count, context, QStringLiteral("Action.NActions"), &app))
        return names;
    const int n = std::clamp(unwrap(firstArgument(count)).toInt(), 0, 64);
    QList<QDBusPendingCall> calls;
    for (int i = 0; i < n; ++i)
        calls.append(m_bus.send(ref, Interface::Action, QStringLiteral("GetName"), {i}, m_bus.callTimeout(context)));
    QStringList out;
    for (auto& call : calls) {
        call.waitForFinished();
        out.append(call.isError() ? QString() : firstArgument(call).toString());
    }
    return out;
}

std::optional<Error> AtspiTreeReader::readTexts(Snapshot& snapshot, const QList<int>& indexes,
                                                const CallContext& context)
{
    App app = m_apps.known(snapshot.nodes.isEmpty() ? QString() : Ref::fromHandle(snapshot.nodes[0].handle).service);
    app.pid = snapshot.pid;
    for (qsizetype start = 0; start < indexes.size(); start += Atspi::kBatch) {
        const auto chunk = indexes.mid(start, Atspi::kBatch);
        const int timeout = m_bus.callTimeout(context);
        QList<QDBusPendingCall> ifaces;
        for (int index : chunk)
            ifaces.append(m_bus.send(Ref::fromHandle(snapshot.nodes[index].handle), Interface::Accessible,
                                     QStringLiteral("GetInterfaces"), {}, timeout));
        QList<std::pair<int, QDBusPendingCall>> texts, values;
        for (int i = 0; i < chunk.size(); ++i) {
            ifaces[i].waitForFinished();
            if (ifaces[i].isError())
                continue;
            Node& node = snapshot.nodes[chunk[i]];
            // Never read a secure field (docs/architecture.md, "Secure elements").
            if (node.isSecure())
                continue;
            const QStringList names = firstArgument(ifaces[i]).toStringList();
            const Ref ref = Ref::fromHandle(node.handle);
            if (names.contains(QStringLiteral("org.a11y.atspi.Text")))
                texts.append({chunk[i], m_bus.send(ref, Interface::Text, QStringLiteral("GetText"), {0, -1}, timeout)});
            else if (names.contains(QStringLiteral("org.a11y.atspi.Value")))
                values.append(
                    {chunk[i],
                     m_bus.send(ref, Interface::Properties, QStringLiteral("Get"),
                                {QStringLiteral("org.a11y.atspi.Value"), QStringLiteral("CurrentValue")}, timeout)});
        }
        for (auto& [index, call] : texts) {
            if (auto err = m_bus.wait(call, context, QStringLiteral("Text.GetText"), &app)) {
                if (err->code != ErrorCode::StaleSnapshot && err->code != ErrorCode::InternalError)
                    return err;
                continue;
            }
            snapshot.nodes[index].value = firstArgument(call).toString();
            snapshot.nodes[index].hasValue = true;
        }
        for (auto& [index, call] : values) {
            if (auto err = m_bus.wait(call, context, QStringLiteral("Value.CurrentValue"), &app)) {
                if (err->code != ErrorCode::StaleSnapshot && err->code != ErrorCode::InternalError)
                    return err;
                continue;
            }
            snapshot.nodes[index].value = numberText(unwrap(firstArgument(call)).toDouble());
            snapshot.nodes[index].hasValue = true;
        }
        if (auto stop = context.checkpoint())
            return stop;
    }
    return std::nullopt;
}

std::optional<Error> AtspiTreeReader::readDescriptions(Snapshot& snapshot, const App& app, const CallContext& context)
{
    const QString accessible = QStringLiteral("org.a11y.atspi.Accessible");
    for (qsizetype start = 0; start < snapshot.nodes.size(); start += Atspi::kBatch) {
        const qsizetype end = std::min<qsizetype>(snapshot.nodes.size(), start + Atspi::kBatch);
        const int timeout = m_bus.batchTimeout(context);
        QList<QDBusPendingCall> calls;
        for (qsizetype i = start; i < end; ++i)
            calls.append(m_bus.send(Ref::fromHandle(snapshot.nodes[i].handle), Interface::Properties,
                                    QStringLiteral("Get"), {accessible, QStringLiteral("Description")}, timeout));
        QList<QDBusPendingCall*> sent;
        for (auto& call : calls)
            sent.append(&call);
        if (auto err = m_bus.waitBatch(sent, context, app, QStringLiteral("reading descriptions")))
            return err;
        for (qsizetype i = start; i < end; ++i) {
            const auto& call = calls[i - start];
            if (!call.isError())
                snapshot.nodes[i].description = unwrap(firstArgument(call)).toString();
        }
    }
    return std::nullopt;
}

Status AtspiTreeReader::readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    App app = m_apps.known(snapshot.nodes.isEmpty() ? QString() : Ref::fromHandle(snapshot.nodes[0].handle).service);
    app.pid = snapshot.pid;
    QHash<QString, int> byHandle;
    for (int i = 0; i < snapshot.nodes.size(); ++i)
        byHandle.insert(snapshot.nodes.at(i).handle, i);
    // ATSPI_RELATION_LABEL_FOR: the node is the label of each target.
    constexpr quint32 kLabelFor = 1;
    for (qsizetype start = 0; start < indexes.size(); start += Atspi::kBatch) {
        const auto chunk = indexes.mid(start, Atspi::kBatch);
        const int timeout = m_bus.batchTimeout(context);
        QList<QDBusPendingCall> calls;
        for (int index : chunk)
            calls.append(m_bus.send(Ref::fromHandle(snapshot.nodes[index].handle), Interface::Accessible,
                                    QStringLiteral("GetRelationSet"), {}, timeout));
        QList<QDBusPendingCall*> sent;
        for (auto& call : calls)
            sent.append(&call);
        if (auto err = m_bus.waitBatch(sent, context, app, QStringLiteral("reading label relations")))
            return *err;
        for (qsizetype i = 0; i < chunk.size(); ++i) {
            Node& node = snapshot.nodes[chunk[i]];
            node.relationsRead = true;
            const auto& call = calls[i];
            if (call.isError() || call.reply().signature() != QLatin1String("a(ua(so))"))
                continue;
            const QDBusArgument arg = call.reply().arguments().constFirst().value<QDBusArgument>();
            arg.beginArray();
            while (!arg.atEnd()) {
                quint32 type = 0;
                arg.beginStructure();
                arg >> type;
                arg.beginArray();
                while (!arg.atEnd()) {
                    const Ref target = refFromArgument(arg);
                    const int at = byHandle.value(target.handle(), -1);
                    if (type == kLabelFor && at >= 0 && !node.labelFor.contains(at))
                        node.labelFor.append(at);
                }
                arg.endArray();
                arg.endStructure();
            }
            arg.endArray();
        }
        if (auto stop = context.checkpoint())
            return *stop;
    }
    return success();
}

Status AtspiTreeReader::completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    App app = m_apps.known(snapshot.nodes.isEmpty() ? QString() : Ref::fromHandle(snapshot.nodes[0].handle).service);
    app.pid = snapshot.pid;
    if (app.root.service.isEmpty() && !snapshot.nodes.isEmpty())
        app.root = Ref{Ref::fromHandle(snapshot.nodes[0].handle).service, Atspi::rootPath()};
    m_apps.readToolkit(app, context);
    // Frames are screen coordinates in answers and evidence: a toolkit that reports them
    // relative to its window gets the window's position on screen added.
    std::optional<QPoint> origin;
    if (app.windowRelativeExtents()) {
        origin = m_x11.contentOrigin(m_x11.findWindow(snapshot.pid, snapshot.windowTitle));
        if (!origin)
            qCWarning(lcAtspi) << "no X window for" << app.name << ": its frames stay window-relative";
    }
    // States and frames change without reliable events, so they are read every time; what an
    // object implements, and its action names, come from the tree cache when it has them (read
    // once, then kept until an event about the object drops them).
    m_bus.tree()->sync();
    for (qsizetype start = 0; start < indexes.size(); start += Atspi::kBatch / 3) {
        const auto chunk = indexes.mid(start, Atspi::kBatch / 3);
        const int timeout = m_bus.batchTimeout(context);
        QList<QDBusPendingCall> states, frames;
        QList<std::optional<QDBusPendingCall>> ifaces;
        QList<std::optional<AtspiTreeCache::Entry>> known;
        QList<quint64> generations;
        for (int index : chunk) {
            const Ref ref = Ref::fromHandle(snapshot.nodes[index].handle);
            generations.append(m_bus.tree()->generation(ref.service));
            known.append(snapshot.bounds.refresh ? std::nullopt : m_bus.tree()->lookup(ref.service, ref.path));
            states.append(m_bus.send(ref, Interface::Accessible, QStringLiteral("GetState"), {}, timeout));
            frames.append(m_bus.send(ref, Interface::Component, QStringLiteral("GetExtents"), {0u}, timeout));
            if (known.last() && known.last()->interfaces)
                ifaces.append(std::nullopt);
            else
                ifaces.append(m_bus.send(ref, Interface::Accessible, QStringLiteral("GetInterfaces"), {}, timeout));
        }
        struct ActionRead
        {
            int index = -1;
            int position = -1; ///< in chunk
            std::optional<QDBusPendingCall> call;
        };
        {
            QList<QDBusPendingCall*> sent;
            for (int i = 0; i < chunk.size(); ++i) {
                sent << &states[i] << &frames[i];
                if (ifaces[i])
                    sent << &*ifaces[i];
            }
            if (auto err = m_bus.waitBatch(sent, context, app, QStringLiteral("reading element details")))
                return *err;
        }
        QList<ActionRead> actions;
        QList<std::optional<QStringList>> readInterfaces(chunk.size());
        for (int i = 0; i < chunk.size(); ++i) {
            Node& node = snapshot.nodes[chunk[i]];
            for (QDBusPendingCall* call : {&states[i], &frames[i], ifaces[i] ? &*ifaces[i] : nullptr}) {
                if (!call)
                    continue;
                call->waitForFinished();
                if (Atspi::failureOf(*call) == Atspi::CallFailure::Unanswered)
                    return *m_bus.errorFor(*call, QStringLiteral("reading element details"), &app, timeout);
            }
            if (!states[i].isError()) {
                const auto bits = uintList(firstArgument(states[i]));
                const quint32 low = bits.value(0), high = bits.value(1);
                const bool secure = node.isSecure();
                node.states = Atspi::nodeStates(low, high, secure);
                if (Atspi::hasState(low, high, Atspi::StateMultiLine) && node.role == QLatin1String("AXTextField") &&
                    !secure)
                    node.role = QStringLiteral("AXTextArea");
            }
            if (!frames[i].isError()) {
                node.frame = extents(firstArgument(frames[i]));
                if (origin && !node.frame.isEmpty()) {
                    node.frame.x += origin->x();
                    node.frame.y += origin->y();
                }
            }
            std::optional<QStringList> interfaces;
            if (!ifaces[i])
                interfaces = known[i]->interfaces;
            else if (!ifaces[i]->isError())
                interfaces = readInterfaces[i] = firstArgument(*ifaces[i]).toStringList();
            if (interfaces && interfaces->contains(QStringLiteral("org.a11y.atspi.Action"))) {
                if (known[i] && known[i]->actions)
                    node.actions = *known[i]->actions;
                else
                    actions.append({chunk[i], i,
                                    m_bus.send(Ref::fromHandle(node.handle), Interface::Action,
                                               QStringLiteral("GetActions"), {}, timeout)});
            }
            node.detailed = true;
        }
        QList<std::optional<QStringList>> readActions(chunk.size());
        {
            QList<QDBusPendingCall*> sent;
            for (auto& read : actions)
                sent << &*read.call;
            if (auto err = m_bus.waitBatch(sent, context, app, QStringLiteral("reading element actions")))
                return *err;
        }
        for (auto& read : actions) {
            read.call->waitForFinished();
            Node& node = snapshot.nodes[read.index];
            if (!read.call->isError())
                node.actions = actionNames(firstArgument(*read.call));
            // Gecko: names only through GetName(i).
            if (!actionNamesUsable(node.actions))
                node.actions = actionNamesOf(Ref::fromHandle(node.handle), app, context);
            if (!read.call->isError())
                readActions[read.position] = node.actions;
        }
        for (int i = 0; i < chunk.size(); ++i) {
            if (readInterfaces[i] || readActions[i]) {
                const Ref ref = Ref::fromHandle(snapshot.nodes[chunk[i]].handle);
                m_bus.tree()->storeDetails(ref.service, ref.path, generations[i], readInterfaces[i], readActions[i]);
            }
        }
        if (auto stop = context.checkpoint())
            return *stop;
    }
    return success();
}

} // namespace Automation
