// The macOS backend's logic over AxApi (docs/macos.md). Nothing here calls Apple: AxApiMac.mm
// does, and the tests run this file on Linux against FakeAxApi.
#include "automation/backends/macos/MacBackend.h"

#include "automation/BackendSettings.h"
#include "automation/ChordPlayer.h"
#include "automation/KeySink.h"
#include "automation/PngEncoder.h"
#include "automation/TextDelivery.h"
#include "automation/TypingLadder.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QThread>

#include <cmath>

namespace Automation::Mac {

namespace {

/// The longest one AX message may wait for an app (the request's budget caps it further).
constexpr int kMessageCapMs = 2000;
/// How long a pid that did not answer is taken as hung before it is asked again.
constexpr int kHungForMs = 5000;
/// How long an action's effect is watched for.
constexpr int kVerifyMs = 600;

/// What a tree read asks of each node in one batch. Its children are not among them: they are
/// counted, then read a page at a time, no more than the read's bounds can take.
const QStringList& nodeAttributes()
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

bool isTextRole(const QString& role)
{
    return role == QLatin1String("AXTextField") || role == QLatin1String("AXTextArea") ||
           role == QLatin1String("AXComboBox") || role == QLatin1String("AXSecureTextField");
}

bool isFocusableRole(const QString& role)
{
    static const QSet<QString> roles{QStringLiteral("AXButton"),      QStringLiteral("AXCheckBox"),
                                     QStringLiteral("AXRadioButton"), QStringLiteral("AXPopUpButton"),
                                     QStringLiteral("AXSlider"),      QStringLiteral("AXLink"),
                                     QStringLiteral("AXMenuButton"),  QStringLiteral("AXList"),
                                     QStringLiteral("AXTable"),       QStringLiteral("AXOutline")};
    return isTextRole(role) || roles.contains(role);
}

/// The role a value's text is the visible label of (a static text has no AXTitle).
bool valueIsTitle(const QString& role)
{
    return role == QLatin1String("AXStaticText");
}

QString stringOf(const AxRead& read)
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

bool boolOf(const AxRead& read, bool otherwise = false)
{
    if (read.error != AxError::Success)
        return otherwise;
    if (read.value.type == AxValue::Type::Bool)
        return read.value.boolean;
    if (read.value.type == AxValue::Type::Number)
        return read.value.number != 0;
    return otherwise;
}

Frame frameOf(const AxRead& position, const AxRead& size)
{
    if (position.error != AxError::Success || size.error != AxError::Success)
        return {};
    return Frame{static_cast<int>(std::lround(position.value.point.x())),
                 static_cast<int>(std::lround(position.value.point.y())),
                 static_cast<int>(std::lround(size.value.size.width())),
                 static_cast<int>(std::lround(size.value.size.height()))};
}

QJsonObject frameJson(const QRectF& r)
{
    return Frame{static_cast<int>(std::lround(r.x())), static_cast<int>(std::lround(r.y())),
                 static_cast<int>(std::lround(r.width())), static_cast<int>(std::lround(r.height()))}
        .toJson();
}

bool isTerminal(const QString& bundleId)
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

} // namespace

struct MacBackend::Private
{
    explicit Private(AxApi& api) : api(api), keys(api) { clock.start(); }

    AxApi& api;
    CgKeySink keys;
    QElapsedTimer clock;
    qint64 ownPid = QCoreApplication::applicationPid();
    int pngCompression = -1;
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

MacBackend::MacBackend(std::unique_ptr<AxApi> api) : m_api(std::move(api)), d(std::make_unique<Private>(*m_api)) {}

MacBackend::~MacBackend()
{
    if (m_notices)
        m_api->streamNotices({});
}

std::optional<DesktopEvent> MacBackend::eventOf(const AxNotice& notice, NoticeMemory& memory, qint64 ownPid)
{
    // The host's own windows are never streamed, as they are never a route (host_itself).
    if (notice.pid == ownPid || notice.pid <= 0)
        return std::nullopt;
    const auto known = [](const AxKnown& node, bool withSubrole) {
        QJsonObject out;
        if (!node.role.isEmpty()) {
            out.insert(QStringLiteral("role"), node.role);
            out.insert(QStringLiteral("nativeRole"), node.role);
        }
        if (withSubrole && !node.subrole.isEmpty())
            out.insert(QStringLiteral("subrole"), node.subrole);
        out.insert(QStringLiteral("title"), node.title);
        return out;
    };
    QString kind;
    QJsonObject extra;
    // A created element tells of its parent's children; every other notice of the element itself.
    const bool created = notice.notification == QLatin1String("AXCreated");
    const AxKnown subject = created ? notice.ancestors.value(0) : notice.element;
    QList<AxKnown> lineage = notice.ancestors;
    if (!created)
        lineage.prepend(notice.element);
    {
        QMutexLocker lock(&memory.mutex);
        ++memory.activity[notice.pid];
        memory.changed.wakeAll();
        if (memory.titles.size() > 4096)
            memory.titles.clear();
        if (memory.rows.size() > 4096)
            memory.rows.clear();
        const QString was = memory.titles.value(notice.elementKey);
        if (!notice.elementKey.isEmpty() && !created)
            memory.titles.insert(notice.elementKey, notice.element.title);
        if (notice.notification == QLatin1String("AXFocusedUIElementChanged")) {
            kind = QStringLiteral("focus.changed");
        } else if (notice.notification == QLatin1String("AXTitleChanged")) {
            kind = QStringLiteral("element.nameChanged");
            extra.insert(QStringLiteral("was"), was);
        } else if (notice.notification == QLatin1String("AXValueChanged")) {
            kind = QStringLiteral("element.valueChanged");
        } else if (created) {
            kind = QStringLiteral("element.childrenChanged");
            extra.insert(QStringLiteral("change"), QStringLiteral("added"));
        } else if (notice.notification == QLatin1String("AXRowCountChanged")) {
            kind = QStringLiteral("element.childrenChanged");
            const auto before = memory.rows.constFind(notice.elementKey);
            const bool knewBefore = before != memory.rows.constEnd();
            const qint64 previous = knewBefore ? *before : -1;
            if (notice.rowCount >= 0 && !notice.elementKey.isEmpty())
                memory.rows.insert(notice.elementKey, notice.rowCount);
            if (notice.rowCount >= 0 && knewBefore && notice.rowCount == previous)
                return std::nullopt;
            extra.insert(QStringLiteral("change"), notice.rowCount < 0 || !knewBefore ? QStringLiteral("changed")
                                                   : notice.rowCount > previous       ? QStringLiteral("added")
                                                                                      : QStringLiteral("removed"));
        } else {
            return std::nullopt;
        }
    }
    QJsonObject payload{
        {QStringLiteral("element"), known(subject, false)},
        {QStringLiteral("app"),
         QJsonObject{{QStringLiteral("name"), notice.appName.isEmpty() ? notice.executable : notice.appName},
                     {QStringLiteral("executable"), notice.executable},
                     {QStringLiteral("pid"), notice.pid}}}};
    if (!notice.windowTitle.isEmpty())
        payload.insert(QStringLiteral("window"), QJsonObject{{QStringLiteral("title"), notice.windowTitle}});
    for (auto it = extra.begin(); it != extra.end(); ++it)
        payload.insert(it.key(), it.value());
    QJsonArray chain;
    for (const AxKnown& node : std::as_const(lineage))
        chain.append(known(node, true));
    return DesktopEvent{kind, payload, chain};
}

QStringList MacBackend::streamedNotifications()
{
    return {QStringLiteral("AXFocusedUIElementChanged"), QStringLiteral("AXTitleChanged"),
            QStringLiteral("AXValueChanged"), QStringLiteral("AXCreated"), QStringLiteral("AXRowCountChanged")};
}

void MacBackend::setEventSink(DesktopEventSink sink)
{
    m_sink = std::move(sink);
    restream();
}

void MacBackend::setElementEventsWanted(bool wanted)
{
    m_eventsWanted = wanted;
    restream();
}

// Observers of every app cost each app a message per change: the stream runs only while a sink
// is set and someone subscribed to element events.
void MacBackend::restream()
{
    const bool run = m_sink && m_eventsWanted;
    if (run == static_cast<bool>(m_notices))
        return;
    if (!run) {
        m_api->streamNotices({});
        m_notices.reset();
        return;
    }
    auto memory = std::make_shared<NoticeMemory>();
    m_notices = memory;
    m_api->streamNotices([sink = m_sink, memory, ownPid = d->ownPid](const AxNotice& notice) {
        if (auto event = eventOf(notice, *memory, ownPid))
            sink(*event);
    });
}

ChangeWait MacBackend::waitForChange(const ResolvedRoute& route, qint64 ms, const CallContext& context)
{
    if (route.pid <= 0)
        return DesktopBackend::waitForChange(route, ms, context);
    QDeadlineTimer nap(std::max<qint64>(0, ms));
    if (!m_notices) {
        // No stream: an observer of the route's app alone, on the worker, for this wait.
        bool changed = false;
        if (m_api->observe(route.pid, streamedNotifications(),
                           [&changed](const AxElement&, const QString&) { changed = true; }) != AxError::Success)
            return DesktopBackend::waitForChange(route, ms, context);
        const auto unobserve = qScopeGuard([&] { m_api->unobserve(route.pid); });
        while (!changed && !nap.hasExpired() && !context.checkpoint())
            m_api->pumpNotifications(static_cast<int>(std::clamp<qint64>(nap.remainingTime(), 1, 20)));
        return changed ? ChangeWait::Changed : ChangeWait::Quiet;
    }
    NoticeMemory& memory = *m_notices;
    QMutexLocker lock(&memory.mutex);
    const quint64 mark = memory.activity.value(route.pid);
    while (!nap.hasExpired()) {
        if (memory.activity.value(route.pid) != mark)
            return ChangeWait::Changed;
        // In short slices, so a cancel or the deadline is seen soon.
        memory.changed.wait(&memory.mutex, QDeadlineTimer(std::clamp<qint64>(nap.remainingTime(), 1, 20)));
        lock.unlock();
        const bool cancelled = static_cast<bool>(context.checkpoint());
        lock.relock();
        if (cancelled)
            break;
    }
    return memory.activity.value(route.pid) != mark ? ChangeWait::Changed : ChangeWait::Quiet;
}

BackendInfo MacBackend::info()
{
    BackendInfo info;
    info.name = QStringLiteral("macos");
    info.available = m_api->isProcessTrusted(false);
    info.message = info.available
                       ? QStringLiteral("accessibility granted; AX API available")
                       : QStringLiteral("accessibility is not granted to the host: System Settings > Privacy & "
                                        "Security > Accessibility");
    info.details = QJsonObject{{QStringLiteral("screenCapture"), m_api->screenCaptureAllowed()},
                               {QStringLiteral("knownElements"), static_cast<int>(d->elements.size())},
                               {QStringLiteral("displays"), static_cast<int>(m_api->displays().size())},
                               {QStringLiteral("secureEventInput"), m_api->secureEventInputEnabled()}};
    return info;
}

void MacBackend::configure(const QJsonObject& settings)
{
    const BackendSettings parsed = BackendSettings::fromJson(settings);
    if (parsed.pngCompression)
        d->pngCompression = *parsed.pngCompression;
}

Result<ResolvedRoute> MacBackend::resolveRoute(const Route& route, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (route.windowNativeId) // a narrowing member is honoured or refused, never ignored
        return Error::invalidParam(QStringLiteral("route.window.nativeId"),
                                   QStringLiteral("route.window.nativeId is not supported on macOS yet"));
    if (!m_api->isProcessTrusted(false))
        return Private::permissionMissing();
    if (route.pid && *route.pid == d->ownPid)
        return Error::make(ErrorCode::CallerForbidden, QStringLiteral("the host never automates its own windows"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("host_itself")}});
    const QList<RunningApp> apps = m_api->runningApplications();
    QJsonArray available;
    QList<RunningApp> candidates;
    const bool explicitApp = route.pid || route.bundleId;
    for (const auto& app : apps) {
        if (!app.regular || app.pid == d->ownPid)
            continue;
        available.append(QJsonObject{{QStringLiteral("name"), app.name},
                                     {QStringLiteral("bundleId"), app.bundleId},
                                     {QStringLiteral("pid"), app.pid}});
        if (route.pid && app.pid != *route.pid)
            continue;
        if (route.bundleId) {
            const QString& wanted = *route.bundleId;
            if (app.bundleId.compare(wanted, Qt::CaseInsensitive) != 0 &&
                app.name.compare(wanted, Qt::CaseInsensitive) != 0 &&
                QFileInfo(app.executable).fileName().compare(wanted, Qt::CaseInsensitive) != 0)
                continue;
        }
        if (!explicitApp && !app.active)
            continue; // the default route: the frontmost app
        candidates.append(app);
    }
    if (candidates.isEmpty())
        return Error::make(ErrorCode::ElementNotFound,
                           explicitApp ? QStringLiteral("no running application matches the route")
                                       : QStringLiteral("no application is frontmost"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("app_not_found")},
                                       {QStringLiteral("apps"), available}});
    const QRegularExpression titlePattern(route.windowTitlePattern.value_or(QString()));
    struct Choice
    {
        RunningApp app;
        Private::Window window;
        int rank = -1;
        QList<Private::Window> siblings;
    };
    Choice best;
    QJsonArray unresponsive;
    for (const auto& app : candidates) {
        if (d->recentlyHung(app.pid) && candidates.size() > 1) {
            unresponsive.append(app.name);
            continue;
        }
        auto windows = d->windowsOf(app, context);
        if (!windows) {
            if (candidates.size() == 1 || windows.error().code != ErrorCode::TargetUnresponsive)
                return windows.error();
            unresponsive.append(app.name);
            continue;
        }
        for (const auto& window : windows.value()) {
            if (route.windowTitlePattern && !titlePattern.match(window.title).hasMatch())
                continue;
            if (route.windowHandle && window.element.key() != *route.windowHandle)
                continue;
            const int rank = (window.focused ? 4 : 0) + (window.main ? 2 : 0) + (window.minimized ? 0 : 1);
            if (rank > best.rank)
                best = Choice{app, window, rank, windows.value()};
        }
    }
    if (best.rank < 0)
        return Error::make(ErrorCode::ElementNotFound,
                           route.windowHandle ? QStringLiteral("no window has the route's window id (it closed, or "
                                                               "its app restarted)")
                           : route.windowTitlePattern ? QStringLiteral("no window matches the route's titlePattern")
                                                      : QStringLiteral("the application has no window"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")},
                                       {QStringLiteral("apps"), available},
                                       {QStringLiteral("unresponsive"), unresponsive}});
    ResolvedRoute resolved;
    resolved.appName = best.app.name;
    resolved.bundleId = best.app.bundleId.isEmpty() ? best.app.name : best.app.bundleId;
    resolved.pid = best.app.pid;
    resolved.windowTitle = best.window.title;
    resolved.appHandle = m_api->applicationElement(best.app.pid).key();
    resolved.windowHandle = best.window.element.key();
    resolved.windowFocused = best.app.active && best.window.focused;
    if (!best.window.modal) {
        for (const auto& other : std::as_const(best.siblings)) {
            if (other.modal && !other.minimized && !(other.element == best.window.element)) {
                resolved.blockingModal = other.title;
                break;
            }
        }
    }
    return resolved;
}

Status MacBackend::focusWindow(const ResolvedRoute& route, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const auto window = d->element(route.windowHandle);
    if (!window)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the route's window is no longer known"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    const AxElement app = m_api->applicationElement(route.pid);
    d->budget(route.pid, app, context);
    // AXFrontmost brings the app forward on every macOS; activateWithOptions: does nothing from a
    // background app on macOS 14 and later, and is kept for 12 and 13 where AXFrontmost is not
    // enough. Then the window is raised and made main.
    const AxError frontmost = m_api->setAttribute(app, QStringLiteral("AXFrontmost"), AxValue::ofBool(true));
    if (frontmost == AxError::ApiDisabled)
        return Private::permissionMissing();
    if (!m_api->activateApplication(route.pid))
        return Error::make(ErrorCode::FocusLost, QStringLiteral("the app could not be activated (it quit?)"),
                           QJsonObject{{QStringLiteral("pid"), route.pid}});
    m_api->performAction(*window, QStringLiteral("AXRaise"));
    m_api->setAttribute(*window, QStringLiteral("AXMain"), AxValue::ofBool(true));
    // Read back: the app frontmost and the window its focused one.
    QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(1000, context.remainingMs() - 50)));
    while (true) {
        const bool front = d->frontmostPid() == route.pid;
        auto focused = d->read(route.pid, app, {QStringLiteral("AXFocusedWindow")}, context);
        if (!focused)
            return focused.error();
        if (front && focused->at(0).value.element == *window)
            return success();
        if (until.hasExpired())
            break;
        m_api->pumpNotifications(20);
        QThread::msleep(30);
    }
    if (auto stop = context.checkpoint())
        return *stop;
    return Error::make(ErrorCode::FocusLost, QStringLiteral("the window did not become the focused one"),
                       QJsonObject{{QStringLiteral("window"), route.windowTitle},
                                   {QStringLiteral("frontmostPid"), d->frontmostPid()}});
}

Result<Snapshot> MacBackend::snapshot(const ResolvedRoute& route, const SnapshotBounds& bounds,
                                      const CallContext& context)
{
    QElapsedTimer timer;
    timer.start();
    const AxElement app = m_api->applicationElement(route.pid);
    const AxElement root = route.windowHandle.isEmpty() ? app : d->element(route.windowHandle).value_or(AxElement());
    if (root.isNull())
        return Error::make(ErrorCode::StaleSnapshot,
                           QStringLiteral("the route's window is no longer known; resolve it again"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    d->askForWebContent(route.pid, app, context);
    Snapshot snapshot;
    snapshot.appName = route.appName;
    snapshot.bundleId = route.bundleId;
    snapshot.pid = route.pid;
    snapshot.windowTitle = route.windowTitle;
    snapshot.bounds = bounds;
    struct Pending
    {
        AxElement element;
        int parent = -1;
        int depth = 0;
        QList<int> path;
    };
    QList<Pending> stack{{root, -1, 0, {}}};
    QDeadlineTimer wall(bounds.maxWallTimeMs);
    const bool windowActive = route.windowFocused;
    while (!stack.isEmpty()) {
        if (wall.hasExpired()) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxWallTimeMs");
            break;
        }
        if (snapshot.nodes.size() >= bounds.maxNodes) {
            snapshot.truncated = true;
            snapshot.truncatedReason = QStringLiteral("maxNodes");
            break;
        }
        Pending item = stack.takeLast();
        auto reads = d->read(route.pid, item.element, nodeAttributes(), context, QStringLiteral("a tree read"));
        if (!reads) {
            if (item.parent >= 0 && reads.error().code == ErrorCode::ElementNotFound)
                continue; // went away while the tree was read
            return reads.error();
        }
        const QList<AxRead>& r = reads.value();
        d->remember(item.element);
        Node node;
        node.role = stringOf(r.at(Role));
        if (node.role.isEmpty())
            node.role = QStringLiteral("AXUnknown");
        node.subrole = stringOf(r.at(Subrole));
        node.nativeRole = node.role;
        node.title = stringOf(r.at(Title));
        if (node.title.isEmpty())
            node.title = stringOf(r.at(Description));
        node.identifier = stringOf(r.at(Identifier));
        node.description = stringOf(r.at(Help));
        node.frame = frameOf(r.at(Position), r.at(Size));
        node.handle = item.element.key();
        node.parent = item.parent;
        node.path = item.path;
        quint32 states = 0;
        if (boolOf(r.at(Enabled), true))
            states |= StateEnabled;
        if (boolOf(r.at(Focused)))
            states |= StateFocused;
        if (boolOf(r.at(Selected)))
            states |= StateSelected;
        if (boolOf(r.at(Expanded)))
            states |= StateExpanded;
        if (boolOf(r.at(Modal)))
            states |= StateModal;
        if (isTextRole(node.role))
            states |= StateEditable;
        if (node.isSecure())
            states |= StateSecure;
        if (isFocusableRole(node.role))
            states |= StateFocusable;
        if (node.frame.width > 0 && node.frame.height > 0)
            states |= StateVisible | StateShowing;
        if (item.parent < 0 && windowActive)
            states |= StateActive;
        // What the value says: a static text's label, a check box's state, a field's text.
        const bool wantsValue = valueIsTitle(node.role) || node.role == QLatin1String("AXCheckBox") ||
                                node.role == QLatin1String("AXRadioButton") || (bounds.includeText && !node.isSecure());
        if (wantsValue) {
            auto value = d->read(route.pid, item.element, {QStringLiteral("AXValue")}, context);
            if (!value && value.error().code != ErrorCode::ElementNotFound)
                return value.error();
            if (value) {
                const QString text = stringOf(value->at(0));
                if (valueIsTitle(node.role) && node.title.isEmpty())
                    node.title = text;
                if ((node.role == QLatin1String("AXCheckBox") || node.role == QLatin1String("AXRadioButton")) &&
                    text == QLatin1String("1"))
                    node.states |= StateChecked;
                if (bounds.includeText && !node.isSecure()) {
                    node.value = text;
                    node.hasValue = value->at(0).error == AxError::Success;
                }
            }
        }
        node.states |= states;
        if (bounds.searchOnly) {
            node.detailed = false;
        } else {
            QStringList actions;
            if (m_api->actionNames(item.element, &actions) == AxError::Success)
                node.actions = actions;
        }
        const int index = static_cast<int>(snapshot.nodes.size());
        if (item.parent >= 0)
            snapshot.nodes[item.parent].children.append(index);
        snapshot.nodes.append(node);
        // The children: counted, then read from the first, as many as the bounds leave room for
        // (a list of thousands of rows is never read whole for a find of fifty nodes).
        qint64 childCount = 0;
        const AxError counted = m_api->attributeCount(item.element, QStringLiteral("AXChildren"), &childCount);
        if (counted == AxError::CannotComplete)
            return d->unresponsive(route.pid, QStringLiteral("for a node's children"));
        if (counted != AxError::Success || childCount <= 0)
            continue;
        if (item.depth + 1 > bounds.maxDepth) {
            snapshot.truncated = true;
            if (snapshot.truncatedReason.isEmpty())
                snapshot.truncatedReason = QStringLiteral("maxDepth");
            continue;
        }
        const qint64 room = std::max<qint64>(0, bounds.maxNodes - snapshot.nodes.size() - stack.size());
        QList<AxElement> kids;
        if (room > 0) {
            const AxError paged = m_api->attributeValues(item.element, QStringLiteral("AXChildren"), 0,
                                                         std::min(childCount, room), &kids);
            if (paged == AxError::CannotComplete)
                return d->unresponsive(route.pid, QStringLiteral("for a node's children"));
        }
        if (kids.size() < childCount) {
            snapshot.truncated = true;
            if (snapshot.truncatedReason.isEmpty())
                snapshot.truncatedReason = QStringLiteral("maxNodes");
        }
        for (qsizetype i = kids.size() - 1; i >= 0; --i) {
            QList<int> path = item.path;
            path.append(static_cast<int>(i));
            stack.append(Pending{kids.at(i), index, item.depth + 1, path});
        }
    }
    if (snapshot.nodes.isEmpty())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the window has no accessible content"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    snapshot.elapsedMs = timer.elapsed();
    snapshot.takenAt = QDateTime::currentDateTimeUtc();
    return snapshot;
}

Status MacBackend::completeNodes(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    for (int index : indexes) {
        if (index < 0 || index >= snapshot.nodes.size())
            continue;
        Node& node = snapshot.nodes[index];
        if (node.detailed)
            continue;
        if (auto stop = context.checkpoint())
            return *stop;
        const auto element = d->element(node.handle);
        if (element) {
            QStringList actions;
            d->budget(snapshot.pid, m_api->applicationElement(snapshot.pid), context);
            if (m_api->actionNames(*element, &actions) == AxError::Success)
                node.actions = actions;
        }
        node.detailed = true;
    }
    return success();
}

Status MacBackend::readRelations(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    // AX points from a field to its label (AXTitleUIElement); labelFor is the other side.
    QHash<QString, int> anchors;
    for (int index : indexes)
        if (index >= 0 && index < snapshot.nodes.size())
            anchors.insert(snapshot.nodes.at(index).handle, index);
    for (int i = 0; i < snapshot.nodes.size() && !anchors.isEmpty(); ++i) {
        const Node& node = snapshot.nodes.at(i);
        if (!isFocusableRole(node.role))
            continue;
        auto label = d->readNode(snapshot.pid, node, QStringLiteral("AXTitleUIElement"), context);
        if (!label)
            return label.error();
        if (!label.value())
            continue;
        const AxRead& read = *label.value();
        const auto it = anchors.constFind(read.value.element.key());
        if (read.error == AxError::Success && it != anchors.constEnd())
            snapshot.nodes[*it].labelFor.append(i);
    }
    for (int index : indexes)
        if (index >= 0 && index < snapshot.nodes.size())
            snapshot.nodes[index].relationsRead = true;
    return success();
}

Result<Screenshot> MacBackend::screenshot(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    if (!m_api->screenCaptureAllowed())
        return Error::make(ErrorCode::PermissionMissing,
                           QStringLiteral("screen recording is not granted to the host: System Settings > Privacy & "
                                          "Security > Screen Recording"),
                           QJsonObject{{QStringLiteral("permission"), QStringLiteral("screenRecording")}});
    QRectF frame;
    const auto image = m_api->captureMainDisplay(&frame);
    if (!image || image->isNull())
        return Error::make(ErrorCode::InternalError, QStringLiteral("the display could not be captured"));
    const QByteArray png =
        PngEncoder::encode(*image, d->pngCompression >= 0 ? d->pngCompression : PngEncoder::kDefaultLevel);
    if (png.isEmpty())
        return Error::make(ErrorCode::InternalError, QStringLiteral("the screenshot could not be encoded as PNG"));
    return Screenshot{png, image->width(), image->height(), QDateTime::currentDateTimeUtc()};
}

Result<ActionOutcome> MacBackend::press(const ResolvedRoute& route, const Node& element, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const auto target = d->element(element.handle);
    if (!target)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element is no longer known"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    d->budget(route.pid, m_api->applicationElement(route.pid), context);
    QStringList actions;
    const AxError listed = m_api->actionNames(*target, &actions);
    if (listed == AxError::ApiDisabled)
        return Private::permissionMissing();
    if (listed == AxError::InvalidElement)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element is gone"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    if (listed == AxError::CannotComplete)
        return d->unresponsive(route.pid, QStringLiteral("for its actions"));
    QString action;
    // AXShowMenu is not among them: it opens the element's context menu, which is no press (the
    // answer lists it among the actions, for a caller who wants the menu).
    for (const char* wanted : {"AXPress", "AXConfirm", "AXPick", "AXOpen"}) {
        if (actions.contains(QLatin1String(wanted))) {
            action = QLatin1String(wanted);
            break;
        }
    }
    if (action.isEmpty()) // asking again finds none either
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element has no action to press"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_action")},
                                       {QStringLiteral("actions"), QJsonArray::fromStringList(actions)}})
            .withRetryable(false);
    // Like a person, wait a moment for a disabled control to become usable (a dialog's Save
    // turns on once its name is filled in); pressing it now would do nothing.
    {
        QDeadlineTimer until(std::min<qint64>(2000, context.remainingMs() / 3));
        const auto enabled = [&] {
            auto r = d->read(route.pid, *target, {QStringLiteral("AXEnabled")}, context);
            return !r || boolOf(r->at(0), true);
        };
        bool usable = enabled();
        while (!usable && !until.hasExpired()) {
            if (auto stop = context.checkpoint())
                return *stop;
            QThread::msleep(25);
            usable = enabled();
        }
        if (!usable)
            return Error::make(ErrorCode::ElementNotFound,
                               QStringLiteral("the element is disabled; nothing was pressed"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("disabled")},
                                           {QStringLiteral("element"), ElementRef::fromNode(element).toJson()}});
    }
    const Private::Baseline before = d->baseline(route, context);
    if (auto stop = context.checkpoint())
        return *stop;
    const AxError done = m_api->performAction(*target, action);
    bool pending = false;
    switch (done) {
    case AxError::Success:
        break;
    case AxError::CannotComplete:
        // The app took the action but did not reply within the messaging timeout: typical of a
        // button that opens a modal dialog. It may well have run; retrying would run it twice.
        pending = true;
        break;
    case AxError::ApiDisabled:
        return Private::permissionMissing();
    case AxError::InvalidElement:
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element went away"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
    default:
        return Error::make(ErrorCode::InternalError,
                           QStringLiteral("the app refused the action \"%1\" (%2)").arg(action, axErrorName(done)),
                           QJsonObject{{QStringLiteral("action"), action},
                                       {QStringLiteral("reason"), QStringLiteral("refused")}})
            .withRetryable(false);
    }
    Verification v = d->verifyChange(route, before, QStringLiteral("a change in the app after the action"),
                                     pending ? 2000 : kVerifyMs, context, element.handle);
    if (pending && v.effect != Effect::Confirmed) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the app has not replied to the action yet and nothing has changed so far");
    }
    const QString deliveredBy = QStringLiteral("accessibilityAction:") + action.mid(2).toLower();
    v.paths.append(QJsonObject{{QStringLiteral("path"), deliveredBy},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed},
                               {QStringLiteral("replied"), !pending}});
    QJsonObject details{{QStringLiteral("action"), action}};
    if (pending)
        details.insert(QStringLiteral("reply"),
                       QStringLiteral("none yet: the app is still in the action (e.g. a modal dialog)"));
    return ActionOutcome{deliveredBy, v.effect == Effect::Confirmed, details, v};
}

QJsonObject MacBackend::environment(const ResolvedRoute* route, const CallContext& context)
{
    Q_UNUSED(context)
    QJsonObject out;
    const QList<Display> displays = m_api->displays();
    if (!displays.isEmpty())
        out.insert(QStringLiteral("display"),
                   QJsonObject{{QStringLiteral("frame"), frameJson(displays.first().frame)},
                               {QStringLiteral("scale"), displays.first().scale},
                               {QStringLiteral("scaleSource"), QStringLiteral("backingScaleFactor")},
                               {QStringLiteral("count"), static_cast<int>(displays.size())}});
    const QList<ServerWindow> windows = m_api->windowList();
    const qint64 front = d->frontmostPid();
    for (const auto& w : windows) {
        if (w.pid == front && w.layer == 0 && w.onScreen) {
            out.insert(QStringLiteral("frontmost"), QJsonObject{{QStringLiteral("title"), w.title},
                                                                {QStringLiteral("pid"), w.pid},
                                                                {QStringLiteral("frame"), frameJson(w.bounds)}});
            break;
        }
    }
    if (route && route->pid > 0) {
        for (const auto& w : windows) {
            if (w.pid == route->pid && w.layer == 0 && (w.title == route->windowTitle || w.title.isEmpty())) {
                QJsonObject json{{QStringLiteral("title"), route->windowTitle},
                                 {QStringLiteral("pid"), w.pid},
                                 {QStringLiteral("frame"), frameJson(w.bounds)}};
                if (!route->windowId().isEmpty())
                    json.insert(QStringLiteral("windowId"), route->windowId());
                out.insert(QStringLiteral("window"), json);
                break;
            }
        }
    }
    return out;
}

Result<std::optional<CoveringWindow>> MacBackend::windowAbove(const ResolvedRoute& route, QPoint point,
                                                              const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    // The window server's list is front to back: the first window holding the point that is
    // not the app's own covers it. What a person cannot see or click does not cover: invisible
    // overlays (alpha 0), and the windows of the system's own processes (the Dock, the menu bar
    // and its status items, notification banners), which are no regular app's.
    QSet<qint64> regular;
    for (const RunningApp& app : m_api->runningApplications())
        if (app.regular)
            regular.insert(app.pid);
    for (const auto& w : m_api->windowList()) {
        if (!w.onScreen || w.layer < 0 || w.alpha <= 0.0 || !w.bounds.contains(QPointF(point)))
            continue;
        if (w.pid != route.pid && !regular.contains(w.pid))
            continue;
        if (w.pid == route.pid)
            return std::optional<CoveringWindow>();
        return std::optional<CoveringWindow>(
            CoveringWindow{w.title, w.pid,
                           Frame{static_cast<int>(w.bounds.x()), static_cast<int>(w.bounds.y()),
                                 static_cast<int>(w.bounds.width()), static_cast<int>(w.bounds.height())}});
    }
    return std::optional<CoveringWindow>();
}

Result<ActionOutcome> MacBackend::clickAt(const ResolvedRoute& route, QPoint point, const CallContext& context,
                                          const Node* target)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const Private::Baseline before = d->baseline(route, context);
    if (auto stop = context.checkpoint())
        return *stop;
    const QPointF at(point);
    if (!m_api->moveMouse(at) || !m_api->postMouse(at, AxApi::MouseButton::Left, true, 1))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the mouse event could not be created"));
    if (!m_api->postMouse(at, AxApi::MouseButton::Left, false, 1))
        return Error::make(ErrorCode::InternalError, QStringLiteral("the mouse button could not be released"))
            .withRetryable(false);
    Verification v = d->verifyChange(route, before, QStringLiteral("a change in the app after the click"), kVerifyMs,
                                     context, target ? target->handle : QString());
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("pointer")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("pointer"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("x"), point.x()}, {QStringLiteral("y"), point.y()}}, v};
}

Result<TypeOutcome> MacBackend::typeText(const ResolvedRoute& route, const Node* target, const QString& text,
                                         const TypeOptions& options, const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    const AxElement app = m_api->applicationElement(route.pid);
    std::optional<AxElement> field;
    bool secure = false;
    if (target) {
        field = d->element(target->handle);
        if (!field)
            return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the element is no longer known"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("target_gone")}});
        secure = target->isSecure();
        // Focus it; the keys and the paste go where the focus is.
        d->budget(route.pid, app, context);
        m_api->setAttribute(*field, QStringLiteral("AXFocused"), AxValue::ofBool(true));
        auto focused = d->read(route.pid, *field, {QStringLiteral("AXFocused")}, context);
        if (!focused)
            return focused.error();
        if (!boolOf(focused->at(0)))
            return Error::make(ErrorCode::FocusLost, QStringLiteral("the field did not take the keyboard focus"),
                               QJsonObject{{QStringLiteral("element"), target->title}});
    } else {
        auto focused = d->read(route.pid, app, {QStringLiteral("AXFocusedUIElement")}, context);
        if (!focused)
            return focused.error();
        if (focused->at(0).error == AxError::Success && !focused->at(0).value.element.isNull()) {
            auto role = d->read(route.pid, focused->at(0).value.element, {QStringLiteral("AXSubrole")}, context);
            secure = role && stringOf(role->at(0)) == QLatin1String("AXSecureTextField");
        }
    }

    // What the field tells: its text (never a secure one's), its length, the caret.
    const auto readField = [&](QString* value, int* count, qint64* caret) -> bool {
        if (!field)
            return false;
        // A secret's value is never asked for: its character count and the caret only.
        const QStringList names =
            secure ? QStringList{QStringLiteral("AXNumberOfCharacters"), QStringLiteral("AXSelectedTextRange")}
                   : QStringList{QStringLiteral("AXNumberOfCharacters"), QStringLiteral("AXSelectedTextRange"),
                                 QStringLiteral("AXValue")};
        auto r = d->read(route.pid, *field, names, context);
        if (!r)
            return false;
        const bool valueRead = !secure && r->at(2).error == AxError::Success;
        if (value)
            *value = valueRead ? stringOf(r->at(2)) : QString();
        if (count)
            *count = r->at(0).error == AxError::Success ? static_cast<int>(r->at(0).value.number)
                     : valueRead                        ? static_cast<int>(stringOf(r->at(2)).size())
                                                        : -1;
        if (caret)
            *caret = r->at(1).error == AxError::Success ? r->at(1).value.rangeLocation : -1;
        return secure ? r->at(0).error == AxError::Success : valueRead;
    };
    QString before;
    int countBefore = -1;
    qint64 caret = -1;
    const bool canRead = readField(&before, &countBefore, &caret);

    TypingLadder::Facts facts;
    facts.editable = field.has_value() && target && isTextRole(target->role);
    facts.terminal = isTerminal(route.bundleId);
    facts.secure = secure;
    facts.lengthKnown = countBefore >= 0;
    // The pasteboard only into a field known not to be a secret (TypingLadder keeps secrets off it);
    // with no target the focus may be anything, so keys.
    facts.pasteKnown = field.has_value();
    auto ladder = TypingLadder::chosen(TypingLadder::paths(facts), options.delivery);
    if (!ladder)
        return ladder.error();

    const qsizetype index = options.clearBefore ? 0
                            : caret >= 0        ? TextDelivery::indexOfOffset(before, static_cast<int>(caret), true)
                                                : before.size();
    const QString expected = TextDelivery::expectedAfter(before, index, text, options.clearBefore);
    const int expectedCount = options.clearBefore
                                  ? static_cast<int>(text.size())
                                  : (countBefore >= 0 ? countBefore + static_cast<int>(text.size()) : -1);

    TypeOutcome outcome;
    outcome.secure = secure;
    Verification v;
    Effect effect = Effect::SuspectedNoop;
    QElapsedTimer verifyTimer;
    qint64 verifyMs = 0;
    bool anySent = false;
    const auto verifyField = [&](int ms, QJsonObject* observed) {
        verifyTimer.restart();
        QDeadlineTimer until(std::max<qint64>(0, std::min<qint64>(ms, context.remainingMs() - 100)));
        // Nothing read back at all: nothing can tell whether the text arrived, and another path
        // could type it a second time.
        Effect seen = Effect::Unverifiable;
        while (true) {
            QString now;
            int count = -1;
            if (readField(&now, &count, nullptr)) {
                if (secure) {
                    seen = TextDelivery::classifyCount(countBefore, expectedCount, count);
                    *observed = QJsonObject{{QStringLiteral("countBefore"), countBefore},
                                            {QStringLiteral("countAfter"), count}};
                } else {
                    QString how;
                    seen = TextDelivery::classify(before, expected, now, text, &how, options.clearBefore);
                    *observed = QJsonObject{{QStringLiteral("readBack"), TextDelivery::observation(now)},
                                            {QStringLiteral("comparison"), how}};
                }
            }
            if (seen == Effect::Confirmed || until.hasExpired() || context.checkpoint())
                break;
            m_api->pumpNotifications(10);
            QThread::msleep(25);
        }
        verifyMs += verifyTimer.elapsed();
        return seen;
    };
    // Select all of the field through AX (no key can mean something else on another layout),
    // else Command and the key that types "a" on the selected layout.
    const int lengthBefore = countBefore >= 0 ? countBefore : static_cast<int>(before.size());
    const auto selectAll = [&]() -> std::optional<Error> {
        if (field && canRead &&
            m_api->setAttribute(*field, QStringLiteral("AXSelectedTextRange"), AxValue::ofRange(0, lengthBefore)) ==
                AxError::Success)
            return std::nullopt;
        return ChordPlayer(d->keys).play({0x37, d->keyForName(QStringLiteral("a"))}, context);
    };

    for (const QString& path : ladder.value()) {
        if (auto stop = context.checkpoint())
            return anySent ? stop->withRetryable(false) : *stop;
        outcome.path = path;
        QJsonObject observed;
        QJsonObject record{{QStringLiteral("path"), path}};
        if (path == QLatin1String("editableText")) {
            AxError set = AxError::Failure;
            if (options.clearBefore) {
                // Through the field editor (AXSelectedText), as typing goes, so an app that
                // enables Send or Save on a change hears of it; a bare AXValue write bypasses it.
                set = m_api->setAttribute(*field, QStringLiteral("AXSelectedTextRange"),
                                          AxValue::ofRange(0, lengthBefore));
                set = set == AxError::Success
                          ? m_api->setAttribute(*field, QStringLiteral("AXSelectedText"), AxValue::ofString(text))
                          : m_api->setAttribute(*field, QStringLiteral("AXValue"), AxValue::ofString(text));
            } else {
                if (caret >= 0)
                    m_api->setAttribute(*field, QStringLiteral("AXSelectedTextRange"), AxValue::ofRange(caret, 0));
                set = m_api->setAttribute(*field, QStringLiteral("AXSelectedText"), AxValue::ofString(text));
            }
            // No reply in time is no proof that nothing was set.
            anySent = anySent || set == AxError::Success || set == AxError::CannotComplete;
            record.insert(QStringLiteral("axError"), axErrorName(set));
            effect = set == AxError::Success || set == AxError::CannotComplete ? verifyField(500, &observed)
                                                                               : Effect::SuspectedNoop;
        } else if (path == QLatin1String("clipboard")) {
            // Only a pasteboard that holds text can be put back as it was: one with an image,
            // files or nothing is left alone and the ladder goes on to the keys.
            const std::optional<QString> saved = m_api->pasteboardString();
            if (!saved) {
                record.insert(QStringLiteral("skipped"),
                              QStringLiteral("the pasteboard holds no text that could be put back afterwards"));
                v.paths.append(record);
                continue;
            }
            if (!m_api->setPasteboardString(text)) {
                record.insert(QStringLiteral("error"), QStringLiteral("the pasteboard could not be written"));
                v.paths.append(record);
                continue;
            }
            const qint64 ours = m_api->pasteboardChangeCount();
            // Put back what the person had on every way out, unless something else wrote the
            // pasteboard meanwhile.
            const auto putBack = [&] {
                const bool untouched = m_api->pasteboardChangeCount() == ours;
                if (untouched)
                    m_api->setPasteboardString(*saved);
                return untouched;
            };
            auto restore = qScopeGuard(putBack);
            if (options.clearBefore)
                if (auto err = selectAll())
                    return err->withRetryable(false);
            const QList<KeySink::Key> paste{0x37, d->keyForName(QStringLiteral("v"))};
            bool pressed = false;
            if (auto err = ChordPlayer(d->keys).play(paste, context, 0, &pressed))
                return pressed ? err->withRetryable(false) : *err;
            anySent = true;
            effect = verifyField(1000, &observed);
            restore.dismiss();
            const bool untouched = putBack();
            record.insert(QStringLiteral("clipboardRestored"), untouched);
            record.insert(QStringLiteral("clipboardChangedMeanwhile"), !untouched);
        } else {
            if (options.clearBefore) {
                if (auto err = selectAll())
                    return err->withRetryable(false);
                if (auto err = ChordPlayer(d->keys).play({0x33}, context)) // backspace
                    return err->withRetryable(false);
            }
            anySent = true;
            // A CJK input method would take the key events into its composition: an ASCII-capable
            // layout is selected while the keys go out, and the person's source is put back.
            QString inputSource;
            const bool asciiSource = m_api->selectAsciiInputSource(&inputSource);
            auto restoreSource = qScopeGuard([&] { m_api->restoreInputSource(inputSource); });
            record.insert(QStringLiteral("inputSourceSwitched"), !inputSource.isEmpty());
            if (!asciiSource)
                record.insert(QStringLiteral("inputSource"),
                              QStringLiteral("no ASCII-capable keyboard layout could be selected"));
            if (auto err = ChordPlayer(d->keys).type(text, context, options.keyDelayMs))
                return err->withRetryable(false);
            const int codePoints = static_cast<int>(QStringView(text).toUcs4().size());
            effect = field ? verifyField(1000 + 15 * codePoints, &observed) : Effect::Unverifiable;
        }
        record.insert(QStringLiteral("effect"), effectName(effect));
        record.insert(QStringLiteral("observed"), observed);
        v.paths.append(record);
        v.observed = observed;
        if (effect == Effect::Confirmed)
            break;
        if (effect == Effect::Partial || (effect == Effect::Unverifiable && anySent))
            break; // part of it arrived, or nothing can tell: another path would type it twice
    }
    if (field && canRead && !secure) {
        outcome.readBack = true;
        outcome.matched = effect == Effect::Confirmed;
        v.expected = QStringLiteral("the field reads back the text inserted at the caret");
        v.observed.insert(QStringLiteral("expected"), TextDelivery::observation(expected));
    } else if (field && secure) {
        // A secret is never read back: only its length is compared.
        v.expected = QStringLiteral("the secure field's length grows by the text's length");
    } else if (!field) {
        v.expected = QStringLiteral("the text goes to the focused element");
        if (effect == Effect::Unverifiable)
            v.reason =
                QStringLiteral("no target was given, so nothing is read back; pass a target to have it verified");
    }
    if (effect == Effect::SuspectedNoop && v.reason.isEmpty())
        v.reason = QStringLiteral("the field does not read back the text");
    v.effect = effect;
    v.verifyMs = verifyMs;
    outcome.verification = v;
    outcome.details = QJsonObject{{QStringLiteral("paths"), QJsonArray::fromStringList(ladder.value())}};
    return outcome;
}

Result<ActionOutcome> MacBackend::sendChord(const ResolvedRoute& route, const KeyChord& chord, int delayMs,
                                            const CallContext& context)
{
    QList<KeySink::Key> keys;
    for (const auto& name : chord.names()) {
        if (!virtualKeyForName(name))
            return Error::invalidParam(QStringLiteral("keys"), QStringLiteral("no macOS key for \"%1\"").arg(name));
        keys.append(d->keyForName(name));
    }
    const Private::Baseline before = d->baseline(route, context);
    const qint64 focusPid = d->frontmostPid();
    bool anyPressed = false;
    if (auto failure = ChordPlayer(d->keys).play(keys, context, delayMs, &anyPressed))
        return anyPressed ? failure->withRetryable(false) : *failure;
    Verification v =
        d->verifyChange(route, before, QStringLiteral("a change in the app after the keys"), kVerifyMs, context);
    v.observed.insert(QStringLiteral("frontmostPid"), focusPid);
    if (v.effect == Effect::SuspectedNoop && focusPid == route.pid) {
        v.effect = Effect::Unverifiable;
        v.reason = QStringLiteral("the keys went to the app, but nothing it exposes changed");
    } else if (v.effect == Effect::SuspectedNoop) {
        v.reason = QStringLiteral("the keys went to another app (pid %1) and the app did not change").arg(focusPid);
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("keyboard")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("keyboard"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("keys"), QJsonArray::fromStringList(chord.names())}}, v};
}

Status MacBackend::readTexts(Snapshot& snapshot, const QList<int>& indexes, const CallContext& context)
{
    for (int index : indexes) {
        if (index < 0 || index >= snapshot.nodes.size())
            continue;
        Node& node = snapshot.nodes[index];
        if (node.isSecure())
            continue;
        auto r = d->readNode(snapshot.pid, node, QStringLiteral("AXValue"), context);
        if (!r)
            return r.error();
        if (r.value() && r.value()->error == AxError::Success) {
            node.value = stringOf(*r.value());
            node.hasValue = true;
        }
    }
    return success();
}

Result<QList<WindowInfo>> MacBackend::windows(const CallContext& context)
{
    if (auto stop = context.checkpoint())
        return *stop;
    QHash<qint64, RunningApp> apps;
    for (const auto& app : m_api->runningApplications())
        apps.insert(app.pid, app);
    const qint64 front = d->frontmostPid();
    QList<WindowInfo> out;
    bool activeSeen = false;
    // The window server lists front to back; the contract's order is bottom to top.
    for (const auto& w : m_api->windowList()) {
        if (w.layer != 0 || w.pid == d->ownPid)
            continue;
        // What a person can see as a window: not an invisible overlay, not a 1x1 focus proxy,
        // not a window of a process that is no regular app (defect 18).
        if (w.alpha <= 0.0 || w.bounds.width() <= 1 || w.bounds.height() <= 1 || !apps.value(w.pid).regular)
            continue;
        WindowInfo info;
        info.title = w.title;
        info.pid = w.pid;
        info.appName = apps.value(w.pid).name;
        info.executable = QFileInfo(apps.value(w.pid).executable).fileName();
        info.frame = Frame{static_cast<int>(w.bounds.x()), static_cast<int>(w.bounds.y()),
                           static_cast<int>(w.bounds.width()), static_cast<int>(w.bounds.height())};
        // Off screen is not minimized (another Space, a hidden app): the window server cannot
        // tell, so minimized stays false here; desktop.window reads AXMinimized itself.
        info.visible = w.onScreen;
        info.active = !activeSeen && w.onScreen && w.pid == front;
        activeSeen = activeSeen || info.active;
        info.nativeId = QString::number(w.number);
        out.prepend(info);
    }
    return out;
}

Result<ActionOutcome> MacBackend::windowCommand(const ResolvedRoute& route, const WindowCommand& command,
                                                const CallContext& context)
{
    using Action = WindowCommand::Action;
    if (auto stop = context.checkpoint())
        return *stop;
    const auto window = d->element(route.windowHandle);
    if (!window)
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the route's window is no longer known"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    struct Facts
    {
        Frame frame;
        bool minimized = false;
        bool focused = false;
        bool fullScreen = false; ///< in a full-screen Space: not what maximize means
    };
    const AxElement app = m_api->applicationElement(route.pid);
    // The window as AX shows it now; nullopt once it is gone.
    const auto facts = [&]() -> Result<std::optional<Facts>> {
        auto r = d->read(route.pid, *window,
                         {QStringLiteral("AXPosition"), QStringLiteral("AXSize"), QStringLiteral("AXMinimized"),
                          QStringLiteral("AXFullScreen")},
                         context, QStringLiteral("about its window"));
        if (!r) {
            if (r.error().code == ErrorCode::ElementNotFound)
                return std::optional<Facts>();
            return r.error();
        }
        auto focused =
            d->read(route.pid, app, {QStringLiteral("AXFocusedWindow"), QStringLiteral("AXWindows")}, context);
        if (!focused)
            return focused.error();
        if (!focused->at(1).value.elements.contains(*window))
            return std::optional<Facts>();
        return std::optional<Facts>(Facts{frameOf(r->at(0), r->at(1)), boolOf(r->at(2)),
                                          d->frontmostPid() == route.pid && focused->at(0).value.element == *window,
                                          boolOf(r->at(3))});
    };
    auto before = facts();
    if (!before)
        return before.error();
    if (!before.value())
        return Error::make(ErrorCode::ElementNotFound, QStringLiteral("the window is gone"),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("window_not_found")}});
    const Frame old = before.value()->frame;
    // macOS has no maximized state: a window that fills its display (but for the menu bar and
    // the Dock) is taken as zoomed.
    const auto fills = [displays = m_api->displays()](const Frame& f) {
        const QPointF centre(f.x + f.width / 2.0, f.y + f.height / 2.0);
        for (const Display& display : displays)
            if (display.frame.contains(centre))
                return f.width >= display.frame.width() - 24 && f.height >= display.frame.height() - 120;
        return false;
    };
    const bool wasZoomed = fills(old);
    // A title-bar button (close, zoom) by its attribute, pressed.
    const auto pressButton = [&](const QString& attribute) -> AxError {
        auto button = d->read(route.pid, *window, {attribute}, context);
        if (!button || button->at(0).error != AxError::Success || button->at(0).value.element.isNull())
            return AxError::AttributeUnsupported;
        return m_api->performAction(button->at(0).value.element, QStringLiteral("AXPress"));
    };
    // Zoom, never full screen: since 10.10 the green button of a window that can go full screen
    // is an AXFullScreenButton, whose press enters full screen (a Space of its own); its zoom is
    // the extra action AXZoomWindow. A button with neither zooms by its press (older windows).
    const auto zoom = [&]() -> AxError {
        auto button = d->read(route.pid, *window, {QStringLiteral("AXZoomButton")}, context);
        if (!button || button->at(0).error != AxError::Success || button->at(0).value.element.isNull())
            return AxError::AttributeUnsupported;
        const AxElement green = button->at(0).value.element;
        QStringList actions;
        if (const AxError listed = m_api->actionNames(green, &actions); listed != AxError::Success)
            return listed;
        if (actions.contains(QStringLiteral("AXZoomWindow")))
            return m_api->performAction(green, QStringLiteral("AXZoomWindow"));
        auto subrole = d->read(route.pid, green, {QStringLiteral("AXSubrole")}, context);
        if (subrole && stringOf(subrole->at(0)) == QLatin1String("AXFullScreenButton")) {
            // No zoom action: the display's visible frame set directly.
            const QList<Display> displays = m_api->displays();
            if (displays.isEmpty())
                return AxError::Failure;
            const QRectF visible = displays.constFirst().frame.adjusted(0, 25, 0, 0);
            const AxError moved =
                m_api->setAttribute(*window, QStringLiteral("AXPosition"), AxValue::ofPoint(visible.topLeft()));
            return moved == AxError::Success
                       ? m_api->setAttribute(*window, QStringLiteral("AXSize"), AxValue::ofSize(visible.size()))
                       : moved;
        }
        return m_api->performAction(green, QStringLiteral("AXPress"));
    };
    AxError sent = AxError::Success;
    switch (command.action) {
    case Action::Focus: {
        Status focused = focusWindow(route, context);
        if (!focused && focused.error().code != ErrorCode::FocusLost)
            return focused.error();
        break;
    }
    case Action::Minimize:
        sent = m_api->setAttribute(*window, QStringLiteral("AXMinimized"), AxValue::ofBool(true));
        break;
    case Action::Restore:
        // Out of the Dock, out of full screen, or back from zoomed to its own size (zoom toggles).
        if (before.value()->minimized)
            sent = m_api->setAttribute(*window, QStringLiteral("AXMinimized"), AxValue::ofBool(false));
        else if (before.value()->fullScreen)
            sent = m_api->setAttribute(*window, QStringLiteral("AXFullScreen"), AxValue::ofBool(false));
        else if (wasZoomed)
            sent = zoom();
        break;
    case Action::Maximize:
        // macOS "zooms" a window to fill the screen, and zoom toggles, so a window that fills its
        // display already is left as it is.
        if (before.value()->fullScreen)
            sent = m_api->setAttribute(*window, QStringLiteral("AXFullScreen"), AxValue::ofBool(false));
        if (!wasZoomed || before.value()->fullScreen)
            sent = sent == AxError::Success ? zoom() : sent;
        break;
    case Action::Close:
        sent = pressButton(QStringLiteral("AXCloseButton"));
        break;
    case Action::Move:
        sent = m_api->setAttribute(*window, QStringLiteral("AXPosition"), AxValue::ofPoint(QPointF(command.position)));
        break;
    case Action::Resize:
        sent = m_api->setAttribute(*window, QStringLiteral("AXSize"), AxValue::ofSize(QSizeF(command.size)));
        break;
    }
    if (sent == AxError::ApiDisabled)
        return Private::permissionMissing();
    if (sent != AxError::Success && sent != AxError::CannotComplete)
        return Error::make(ErrorCode::InvalidRequest,
                           QStringLiteral("the window does not take \"%1\" (%2)")
                               .arg(windowActionName(command.action), axErrorName(sent)),
                           QJsonObject{{QStringLiteral("reason"), QStringLiteral("unsupported")}});
    const auto done = [&](const std::optional<Facts>& now) {
        switch (command.action) {
        case Action::Close:
            return !now.has_value();
        case Action::Focus:
            return now && now->focused;
        case Action::Minimize:
            return now && now->minimized;
        case Action::Restore:
            return now && !now->minimized && !now->fullScreen &&
                   (before.value()->minimized || before.value()->fullScreen || !wasZoomed || !fills(now->frame));
        case Action::Maximize:
            return now && !now->minimized && !now->fullScreen && fills(now->frame);
        case Action::Move:
            return now &&
                   std::abs(now->frame.x - command.position.x()) + std::abs(now->frame.y - command.position.y()) <= 2;
        case Action::Resize:
            return now && std::abs(now->frame.width - command.size.width()) <= 2 &&
                   std::abs(now->frame.height - command.size.height()) <= 2;
        }
        return false;
    };
    QElapsedTimer timer;
    timer.start();
    auto after = facts();
    while (after && !done(after.value()) && timer.elapsed() < 1000 && !context.checkpoint()) {
        m_api->pumpNotifications(10);
        QThread::msleep(25);
        after = facts();
    }
    if (auto stop = context.checkpoint())
        return stop->withRetryable(false);
    if (!after)
        return Error(after.error()).withRetryable(false);
    const auto describe = [](const std::optional<Facts>& f) -> QJsonValue {
        if (!f)
            return QJsonValue(QStringLiteral("gone"));
        return QJsonObject{{QStringLiteral("frame"), f->frame.toJson()},
                           {QStringLiteral("minimized"), f->minimized},
                           {QStringLiteral("active"), f->focused}};
    };
    Verification v;
    v.expected = QStringLiteral("the window shows itself %1").arg(windowActionName(command.action));
    v.observed = QJsonObject{{QStringLiteral("before"), describe(before.value())},
                             {QStringLiteral("after"), describe(after.value())}};
    v.verifyMs = timer.elapsed();
    if (done(after.value())) {
        v.effect = Effect::Confirmed;
    } else {
        v.effect = Effect::SuspectedNoop;
        v.reason = command.action == Action::Close
                       ? QStringLiteral("the window is still open (the app may be asking something first)")
                       : QStringLiteral("the window did not do it within a second");
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("accessibility")},
                               {QStringLiteral("effect"), effectName(v.effect)}});
    return ActionOutcome{QStringLiteral("accessibility"), v.effect == Effect::Confirmed,
                         QJsonObject{{QStringLiteral("action"), windowActionName(command.action)},
                                     {QStringLiteral("window"), route.windowTitle}},
                         v};
}

Result<ActionOutcome> MacBackend::pointer(const ResolvedRoute& route, const PointerGesture& gesture,
                                          const CallContext& context)
{
    using Kind = PointerGesture::Kind;
    using Button = AxApi::MouseButton;
    if (auto stop = context.checkpoint())
        return *stop;
    const Button button = gesture.button == 3 ? Button::Right : gesture.button == 2 ? Button::Other : Button::Left;
    // Sleeps in short slices; false once the call is cancelled.
    const auto pause = [&context](int ms) {
        QDeadlineTimer until(ms);
        while (!until.hasExpired()) {
            if (context.checkpoint())
                return false;
            QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(until.remainingTime(), 1, 20)));
        }
        return !context.checkpoint();
    };
    const Private::Baseline before = d->baseline(route, context);
    if (auto stop = context.checkpoint())
        return *stop;
    QPointF heldAt;
    bool held = false; // a button down now, released whatever happens next
    const auto release = [&] {
        if (held)
            m_api->postMouse(heldAt, button, false, 1);
        held = false;
    };
    const auto fail = [&](const QString& what) -> Error {
        release();
        if (auto stop = context.checkpoint())
            return stop->withRetryable(false);
        return Error::make(ErrorCode::InternalError, what).withRetryable(false);
    };
    const QString notPosted = QStringLiteral("the mouse event could not be created");
    const QPointF at(gesture.at);
    if (!m_api->moveMouse(at))
        return Error::make(ErrorCode::InternalError, notPosted);
    QJsonObject details{{QStringLiteral("gesture"), gestureName(gesture.kind)},
                        {QStringLiteral("at"),
                         QJsonObject{{QStringLiteral("x"), gesture.at.x()}, {QStringLiteral("y"), gesture.at.y()}}},
                        {QStringLiteral("button"), gesture.button}};
    switch (gesture.kind) {
    case Kind::Move:
        break;
    case Kind::Click:
        // Timed like a person's clicks; each click carries its count (kCGMouseEventClickState),
        // which is how macOS apps tell a double click.
        for (int i = 1; i <= gesture.count; ++i) {
            if ((i > 1 && !pause(80)) || !m_api->postMouse(at, button, true, i))
                return fail(notPosted);
            held = true;
            heldAt = at;
            if (!pause(30) || !m_api->postMouse(at, button, false, i))
                return fail(notPosted);
            held = false;
        }
        details.insert(QStringLiteral("count"), gesture.count);
        break;
    case Kind::Press:
        if (!m_api->postMouse(at, button, true, 1))
            return fail(notPosted);
        held = true;
        heldAt = at;
        if (!pause(gesture.holdMs))
            return fail(QStringLiteral("cancelled"));
        release();
        details.insert(QStringLiteral("holdMs"), gesture.holdMs);
        break;
    case Kind::Drag: {
        if (!m_api->postMouse(at, button, true, 1))
            return fail(notPosted);
        held = true;
        heldAt = at;
        if (!pause(gesture.holdMs))
            return fail(QStringLiteral("cancelled"));
        // Steps of about 16 ms, as dragged events, so apps see a drag and not a jump.
        const int steps = std::max(2, gesture.durationMs / 16);
        for (int i = 1; i <= steps; ++i) {
            const QPointF p(gesture.at.x() + (gesture.to.x() - gesture.at.x()) * i / double(steps),
                            gesture.at.y() + (gesture.to.y() - gesture.at.y()) * i / double(steps));
            if (!m_api->dragMouse(p, button))
                return fail(notPosted);
            heldAt = p;
            if (!pause(gesture.durationMs / steps))
                return fail(QStringLiteral("cancelled"));
        }
        release();
        details.insert(QStringLiteral("to"),
                       QJsonObject{{QStringLiteral("x"), gesture.to.x()}, {QStringLiteral("y"), gesture.to.y()}});
        break;
    }
    }
    Verification v;
    if (gesture.kind == Kind::Move) {
        // A hover has no effect of its own to look for: where the pointer is, read back.
        const auto now = m_api->mouseLocation();
        v.expected = QStringLiteral("the pointer at the point");
        v.observed =
            now ? QJsonObject{{QStringLiteral("x"), now->x()}, {QStringLiteral("y"), now->y()}} : QJsonObject{};
        if (!now) {
            v.effect = Effect::Unverifiable;
            v.reason = QStringLiteral("the pointer's position could not be read");
        } else if (std::abs(now->x() - at.x()) + std::abs(now->y() - at.y()) <= 2) {
            v.effect = Effect::Confirmed;
        } else {
            v.effect = Effect::SuspectedNoop;
            v.reason = QStringLiteral("the pointer is elsewhere");
        }
    } else {
        v = d->verifyChange(route, before, QStringLiteral("a change in the app after the gesture"), kVerifyMs, context);
    }
    v.paths.append(QJsonObject{{QStringLiteral("path"), QStringLiteral("pointer")},
                               {QStringLiteral("effect"), effectName(v.effect)},
                               {QStringLiteral("observed"), v.observed}});
    return ActionOutcome{QStringLiteral("pointer"), v.effect == Effect::Confirmed, details, v};
}

} // namespace Automation::Mac
