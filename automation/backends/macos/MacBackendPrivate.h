// The macOS backend's internals, shared by its rooms (MacBackend.cpp: routes, tree reads and
// events; MacActions.cpp: presses, clicks, typing, keys and pointer gestures; MacWindows.cpp: the
// window list and window actions): the AX helpers and MacBackend::Private. Not for other users.
#pragma once

#include "automation/BackendSettings.h"
#include "automation/ChordPlayer.h"
#include "automation/KeySink.h"
#include "automation/PngEncoder.h"
#include "automation/TextDelivery.h"
#include "automation/TypingLadder.h"
#include "automation/backends/macos/MacBackend.h"
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QThread>

#include <cmath>

namespace Automation::Mac::MacInternal {

/// The longest one AX message may wait for an app (the request's budget caps it further).
inline constexpr int kMessageCapMs = 2000;
/// How long a pid that did not answer is taken as hung before it is asked again.
inline constexpr int kHungForMs = 5000;
/// How long an action's effect is watched for.
inline constexpr int kVerifyMs = 600;

/// What a tree read asks of each node in one batch. Its children are not among them: they are
/// counted, then read a page at a time, no more than the read's bounds can take.
inline const QStringList& nodeAttributes()
{
    static const QStringList names{
        QStringLiteral("AXRole"),        QStringLiteral("AXSubrole"),    QStringLiteral("AXTitle"),
        QStringLiteral("AXDescription"), QStringLiteral("AXIdentifier"), QStringLiteral("AXEnabled"),
        QStringLiteral("AXFocused"),     QStringLiteral("AXPosition"),   QStringLiteral("AXSize"),
        QStringLiteral("AXSelected"),    QStringLiteral("AXExpanded"),   QStringLiteral("AXModal"),
        QStringLiteral("AXHelp")};
    return names;
}
enum NodeAttr {
    Role,
    Subrole,
    Title,
    Description,
    Identifier,
    Enabled,
    Focused,
    Position,
    Size,
    Selected,
    Expanded,
    Modal,
    Help
};

inline bool isTextRole(const QString& role)
{
    return role == QLatin1String("AXTextField") || role == QLatin1String("AXTextArea") ||
           role == QLatin1String("AXComboBox") || role == QLatin1String("AXSecureTextField");
}

inline bool isFocusableRole(const QString& role)
{
    static const QSet<QString> roles{QStringLiteral("AXButton"),      QStringLiteral("AXCheckBox"),
                                     QStringLiteral("AXRadioButton"), QStringLiteral("AXPopUpButton"),
                                     QStringLiteral("AXSlider"),      QStringLiteral("AXLink"),
                                     QStringLiteral("AXMenuButton"),  QStringLiteral("AXList"),
                                     QStringLiteral("AXTable"),       QStringLiteral("AXOutline")};
    return isTextRole(role) || roles.contains(role);
}

/// The role a value's text is the visible label of (a static text has no AXTitle).
inline bool valueIsTitle(const QString& role)
{
    return role == QLatin1String("AXStaticText");
}

inline QString stringOf(const AxRead& read)
{
    if (read.error != AxError::Success)
        return {};
    switch (read.value.type) {
    case AxValue::Type::String:
        return read.value.string;
    case AxValue::Type::Number:
        return numberText(read.value.number);
    case AxValue::Type::Bool:
        return read.value.boolean ? QStringLiteral("1") : QStringLiteral("0");
    default:
        return {};
    }
}

inline bool boolOf(const AxRead& read, bool otherwise = false)
{
    if (read.error != AxError::Success)
        return otherwise;
    if (read.value.type == AxValue::Type::Bool)
        return read.value.boolean;
    if (read.value.type == AxValue::Type::Number)
        return read.value.number != 0;
    return otherwise;
}

inline Frame frameOf(const AxRead& position, const AxRead& size)
{
    if (position.error != AxError::Success || size.error != AxError::Success)
        return {};
    return Frame{static_cast<int>(std::lround(position.value.point.x())),
                 static_cast<int>(std::lround(position.value.point.y())),
                 static_cast<int>(std::lround(size.value.size.width())),
                 static_cast<int>(std::lround(size.value.size.height()))};
}

inline QJsonObject frameJson(const QRectF& r)
{
    return Frame{static_cast<int>(std::lround(r.x())), static_cast<int>(std::lround(r.y())),
                 static_cast<int>(std::lround(r.width())), static_cast<int>(std::lround(r.height()))}
        .toJson();
}

inline bool isTerminal(const QString& bundleId)
{
    static const QSet<QString> terminals{QStringLiteral("com.apple.Terminal"),
                                         QStringLiteral("com.googlecode.iterm2"),
                                         QStringLiteral("net.kovidgoyal.kitty"),
                                         QStringLiteral("io.alacritty"),
                                         QStringLiteral("com.github.wez.wezterm"),
                                         QStringLiteral("dev.warp.Warp-Stable"),
                                         QStringLiteral("com.mitchellh.ghostty"),
                                         QStringLiteral("co.zeit.hyper"),
                                         QStringLiteral("org.tabby")};
    return terminals.contains(bundleId);
}

/// Keyboard input as CGEvents: the modifiers held so far go with every key (a CGEvent does not
/// take them from the events posted before it).
class CgKeySink final : public KeySink
{
public:
    explicit CgKeySink(AxApi& api) : m_api(api) {}

    std::optional<Error> key(Key key, bool press) override
    {
        const auto code = static_cast<quint16>(key);
        const quint64 flag = modifierFlagOfKey(code);
        // A modifier's own events carry the state after them: down with its flag, up without.
        const quint64 next = !flag ? m_flags : press ? (m_flags | flag) : (m_flags & ~flag);
        const bool ok = m_api.postKey(code, press, next);
        if (ok)
            m_flags = next; // a modifier that never went down is not held
        // CGEventPost itself reports nothing (it drops events silently without the grant, which
        // resolveRoute checks before any input): false is an event that could not be made.
        if (!ok)
            return Error::make(ErrorCode::InternalError, QStringLiteral("the key event could not be created"));
        return std::nullopt;
    }

    std::optional<Error> typeCharacter(char32_t character) override
    {
        // Return and Tab are keys to apps (a field's action, the next field), never text.
        if (character == U'\n' || character == U'\r' || character == U'\t') {
            const quint16 code = character == U'\t' ? 0x30 : 0x24;
            if (auto err = key(code, true))
                return err;
            return key(code, false);
        }
        if (!m_api.postText(QString::fromUcs4(&character, 1)))
            return Error::make(ErrorCode::InternalError, QStringLiteral("the text event could not be created"));
        return std::nullopt;
    }

private:
    AxApi& m_api;
    quint64 m_flags = 0;
};

} // namespace Automation::Mac::MacInternal

namespace Automation::Mac {

using namespace MacInternal;

struct MacBackend::Private
{
    explicit Private(AxApi& api) : api(api), keys(api) { clock.start(); }

    AxApi& api;
    CgKeySink keys;
    QElapsedTimer clock;
    qint64 ownPid = QCoreApplication::applicationPid();
    /// Expires with the backend: a clipboard restore scheduled on the worker's loop checks it.
    std::shared_ptr<bool> alive = std::make_shared<bool>(true);
    int pngCompression = -1;
    /// Give the person's front app back after a side effect (the setting giveBackFocus).
    bool giveBackFocus = true;
    /// During a side effect: the app that was in front before the host brought `broughtForward`
    /// forward (0: none).
    qint64 giveBackTo = 0;
    qint64 broughtForward = 0;
    /// Elements by key, two generations (a handle from a recent snapshot stays usable).
    QHash<QString, AxElement> elements, olderElements;
    /// The messaging timeout last set per pid (ms).
    QHash<qint64, int> timeouts;
    /// When each pid last failed to answer (clock ms).
    QHash<qint64, qint64> hungAt;

    /// The key to post for a key name: for a key that types a character, the one that types it on
    /// the selected layout (Command-A is "the key that types a"; on AZERTY the ANSI "a" position
    /// types q, and Command-Q quits the app); else, and on a layout without that character, the
    /// ANSI position. The name must be one virtualKeyForName knows.
    quint16 keyForName(const QString& name)
    {
        const QChar character = characterOfKeyName(name);
        if (!character.isNull())
            if (const auto code = api.virtualKeyForCharacter(character))
                return *code;
        return virtualKeyForName(name).value_or(0);
    }

    void remember(const AxElement& element)
    {
        if (elements.size() >= 20000) {
            olderElements = std::move(elements);
            elements.clear();
        }
        elements.insert(element.key(), element);
    }
    std::optional<AxElement> element(const QString& key) const
    {
        if (auto it = elements.constFind(key); it != elements.constEnd())
            return *it;
        if (auto it = olderElements.constFind(key); it != olderElements.constEnd())
            return *it;
        return std::nullopt;
    }

    /// The pids whose web content was asked for (askForWebContent), so each is asked once.
    QSet<qint64> webContentAsked;
    /// Electron and Chromium apps build the accessibility of their web content only once an AT
    /// asks: until then a page is an empty group. AXManualAccessibility on the app's element
    /// asks, for that process only (AXEnhancedUserInterface would too, but it slows window
    /// moves and animations in some apps). Any other app answers that it has no such attribute.
    void askForWebContent(qint64 pid, const AxElement& app, const CallContext& context)
    {
        if (webContentAsked.contains(pid))
            return;
        webContentAsked.insert(pid);
        budget(pid, app, context);
        if (api.setAttribute(app, QStringLiteral("AXManualAccessibility"), AxValue::ofBool(true)) == AxError::Success)
            QThread::msleep(50); // the app builds it on its own thread: a moment for the first part
    }

    /// The messaging timeout for the next message to `pid`: the request's budget, capped.
    void budget(qint64 pid, const AxElement& appElement, const CallContext& context)
    {
        const int ms = context.callTimeoutMs(kMessageCapMs);
        if (timeouts.value(pid) == ms)
            return;
        api.setMessagingTimeout(appElement, ms / 1000.0);
        timeouts.insert(pid, ms);
    }

    bool recentlyHung(qint64 pid) const
    {
        const auto it = hungAt.constFind(pid);
        return it != hungAt.constEnd() && clock.elapsed() - *it < kHungForMs;
    }

    Error unresponsive(qint64 pid, const QString& what)
    {
        hungAt.insert(pid, clock.elapsed());
        return Error::make(
            ErrorCode::TargetUnresponsive,
            QStringLiteral("the app (pid %1) did not answer %2 in time").arg(pid).arg(what),
            QJsonObject{{QStringLiteral("pid"), pid}, {QStringLiteral("reason"), QStringLiteral("app_not_answering")}});
    }

    static Error permissionMissing()
    {
        return Error::make(ErrorCode::PermissionMissing,
                           QStringLiteral("accessibility is not granted to the host (kAXErrorAPIDisabled)"),
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("accessibility")}});
    }

    /// Reads `attributes` of `element` of app `pid` within the request's budget; an error when
    /// the app did not answer or the host may not ask.
    Result<QList<AxRead>> read(qint64 pid, const AxElement& element, const QStringList& attributes,
                               const CallContext& context, const QString& what = QStringLiteral("an attribute read"))
    {
        if (auto stop = context.checkpoint())
            return *stop;
        budget(pid, api.applicationElement(pid), context);
        QList<AxRead> reads = api.copyAttributes(element, attributes);
        while (reads.size() < attributes.size())
            reads.append(AxRead{AxError::Failure, {}});
        const auto all = [&](AxError e) {
            return std::all_of(reads.cbegin(), reads.cend(), [e](const AxRead& r) { return r.error == e; });
        };
        if (std::any_of(reads.cbegin(), reads.cend(), [](const AxRead& r) { return r.error == AxError::ApiDisabled; }))
            return permissionMissing();
        if (all(AxError::CannotComplete)) {
            if (auto stop = context.checkpoint())
                return *stop;
            return unresponsive(pid, what);
        }
        hungAt.remove(pid);
        if (all(AxError::InvalidElement))
            return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element is gone"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
        return reads;
    }

    /// One attribute of a snapshot's node; nullopt when its element is no longer known or gone.
    Result<std::optional<AxRead>> readNode(qint64 pid, const Node& node, const QString& attribute,
                                           const CallContext& context)
    {
        const auto e = element(node.handle);
        if (!e)
            return std::optional<AxRead>();
        auto r = read(pid, *e, {attribute}, context);
        if (!r) {
            if (r.error().code == ErrorCode::ElementNotFound)
                return std::optional<AxRead>();
            return r.error();
        }
        return std::optional<AxRead>(r->at(0));
    }

    struct Window
    {
        AxElement element;
        QString title;
        QString subrole;
        bool modal = false;
        bool minimized = false;
        bool focused = false;
        bool main = false;
        Frame frame;
    };
    Result<QList<Window>> windowsOf(const RunningApp& app, const CallContext& context)
    {
        const AxElement root = api.applicationElement(app.pid);
        auto top =
            read(app.pid, root,
                 {QStringLiteral("AXWindows"), QStringLiteral("AXFocusedWindow"), QStringLiteral("AXMainWindow")},
                 context, QStringLiteral("the list of its windows"));
        if (!top)
            return top.error();
        QList<Window> out;
        const AxElement focused = top->at(1).value.element;
        const AxElement mainWindow = top->at(2).value.element;
        for (const AxElement& w : top->at(0).value.elements) {
            auto facts = read(app.pid, w,
                              {QStringLiteral("AXTitle"), QStringLiteral("AXSubrole"), QStringLiteral("AXModal"),
                               QStringLiteral("AXMinimized"), QStringLiteral("AXPosition"), QStringLiteral("AXSize")},
                              context, QStringLiteral("about its windows"));
            if (!facts) {
                if (facts.error().code == ErrorCode::ElementNotFound)
                    continue; // closed meanwhile
                return facts.error();
            }
            remember(w);
            Window window;
            window.element = w;
            window.title = stringOf(facts->at(0));
            window.subrole = stringOf(facts->at(1));
            window.modal = boolOf(facts->at(2));
            window.minimized = boolOf(facts->at(3));
            window.frame = frameOf(facts->at(4), facts->at(5));
            window.focused = !focused.isNull() && w == focused;
            window.main = !mainWindow.isNull() && w == mainWindow;
            out.append(window);
        }
        return out;
    }

    std::optional<RunningApp> appOf(qint64 pid)
    {
        for (const auto& app : api.runningApplications())
            if (app.pid == pid)
                return app;
        return std::nullopt;
    }

    qint64 frontmostPid()
    {
        for (const auto& app : api.runningApplications())
            if (app.active)
                return app.pid;
        return 0;
    }

    // ---- verification: what changed in the app, from its tree ----

    struct Baseline
    {
        bool read = false;
        bool cut = false; ///< the walk stopped at its bounds: only the nodes both walks read compare
        QStringList signature;
        QString focusedWindow;
        QStringList windows;
        QString focusedElement;
        /// Every element read, held: AX hands out a new reference on every read, and AxApiMac
        /// gives a read the key of an equal element only while a copy of that element lives. So
        /// the elements of "before" stay alive while "now" is read, and an element that did not
        /// change keeps its key; none of it is reported as changed for a new reference.
        QList<AxElement> held;
    };

    /// A bounded digest of what the app shows: its windows, the focused element and each
    /// node of the route's window (role, title, value, enabled, selected, expanded, children;
    /// a secure field's character count, never its value). Anything an action does that a
    /// person would see changes it. Bounded by node count (the same nodes in the same order
    /// whatever the app's speed), with a time cap that marks the digest cut.
    Baseline baseline(const ResolvedRoute& route, const CallContext& context)
    {
        Baseline b;
        const AxElement root = api.applicationElement(route.pid);
        auto top =
            read(route.pid, root,
                 {QStringLiteral("AXWindows"), QStringLiteral("AXFocusedWindow"), QStringLiteral("AXFocusedUIElement")},
                 context);
        if (!top)
            return b;
        b.read = true;
        for (const auto& w : top->at(0).value.elements)
            b.windows.append(w.key());
        b.held.append(top->at(0).value.elements);
        b.focusedWindow = top->at(1).value.element.key();
        b.focusedElement = top->at(2).value.element.key();
        b.held.append(top->at(1).value.element);
        b.held.append(top->at(2).value.element);
        const auto window = element(route.windowHandle);
        if (!window)
            return b;
        QList<std::pair<AxElement, int>> stack{{*window, 0}};
        QDeadlineTimer until(std::max<qint64>(50, std::min<qint64>(1000, context.remainingMs() / 4)));
        const QStringList names{QStringLiteral("AXRole"),    QStringLiteral("AXTitle"),    QStringLiteral("AXSubrole"),
                                QStringLiteral("AXEnabled"), QStringLiteral("AXChildren"), QStringLiteral("AXSelected"),
                                QStringLiteral("AXExpanded")};
        while (!stack.isEmpty()) {
            if (b.signature.size() >= 400 || until.hasExpired()) {
                b.cut = true;
                break;
            }
            const auto [e, depth] = stack.takeLast();
            const QList<AxRead> r = api.copyAttributes(e, names);
            if (r.size() < names.size() || r.at(0).error == AxError::CannotComplete) {
                b.cut = true;
                break;
            }
            const QString role = stringOf(r.at(0));
            const bool secure = stringOf(r.at(2)) == QLatin1String("AXSecureTextField");
            // The value is read on its own, after the subrole says it is not a secret.
            QString value;
            const QStringList valueName{secure ? QStringLiteral("AXNumberOfCharacters") : QStringLiteral("AXValue")};
            const QList<AxRead> v = api.copyAttributes(e, valueName);
            if (!v.isEmpty())
                value = stringOf(v.at(0));
            const QList<AxElement> kids = r.at(4).value.elements;
            b.held.append(e);
            b.signature.append(QStringList{e.key(), role, stringOf(r.at(1)), value,
                                           QString::number(boolOf(r.at(3), true)), QString::number(boolOf(r.at(5))),
                                           QString::number(boolOf(r.at(6))), QString::number(kids.size())}
                                   .join(QLatin1Char('|')));
            if (depth < 12)
                for (qsizetype i = kids.size() - 1; i >= 0; --i)
                    stack.append({kids.at(i), depth + 1});
        }
        return b;
    }

    /// Watches for `ms` for the app to differ from `before`.
    Verification verifyChange(const ResolvedRoute& route, const Baseline& before, const QString& expected, int ms,
                              const CallContext& context, const QString& skipFocusOf = {})
    {
        QElapsedTimer timer;
        timer.start();
        Verification v;
        v.expected = expected;
        if (!before.read) {
            v.effect = Effect::Unverifiable;
            v.reason = QStringLiteral("the app's state could not be read before the action");
            v.observed = QJsonObject{{QStringLiteral("appAnswered"), false}};
            return v;
        }
        QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(ms, context.remainingMs() - 100)));
        Baseline now;
        QJsonArray changes;
        while (true) {
            api.pumpNotifications(20);
            now = baseline(route, context);
            if (now.read) {
                if (now.windows != before.windows)
                    changes.append(QStringLiteral("windows"));
                if (now.focusedWindow != before.focusedWindow)
                    changes.append(QStringLiteral("focusedWindow"));
                // The target taking the focus is not the action's effect.
                if (now.focusedElement != before.focusedElement &&
                    (skipFocusOf.isEmpty() || now.focusedElement != skipFocusOf))
                    changes.append(QStringLiteral("focusedElement"));
                // A digest cut short compares on the nodes both walks read.
                const qsizetype common = (before.cut || now.cut)
                                             ? std::min(before.signature.size(), now.signature.size())
                                             : std::max(before.signature.size(), now.signature.size());
                int changed = 0;
                for (qsizetype i = 0; i < common; ++i)
                    changed += before.signature.value(i) == now.signature.value(i) ? 0 : 1;
                if (changed > 0)
                    changes.append(QStringLiteral("tree (%1 nodes changed)").arg(changed));
            }
            if (!changes.isEmpty() || until.hasExpired() || context.checkpoint())
                break;
            QThread::msleep(30);
        }
        v.verifyMs = timer.elapsed();
        v.observed = QJsonObject{{QStringLiteral("appAnswered"), now.read}, {QStringLiteral("changes"), changes}};
        if (!changes.isEmpty()) {
            v.effect = Effect::Confirmed;
        } else if (!now.read) {
            v.effect = Effect::Unverifiable;
            v.reason = QStringLiteral("the app did not answer after the action");
        } else {
            v.effect = Effect::SuspectedNoop;
            v.reason = QStringLiteral("nothing changed in the app within %1 ms").arg(v.verifyMs);
        }
        return v;
    }
};

} // namespace Automation::Mac
