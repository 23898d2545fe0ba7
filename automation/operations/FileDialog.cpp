// desktop.fileDialog: a path saved or opened through the open/save dialog the route's app shows
// (docs/protocol.md §5.32). The disk is looked at first, by the host itself (not every dialog
// asks before it replaces a file); the path goes into the dialog's name field (GTK 3 and 4's
// name or location entry, Qt's file-name field; AppKit's panel takes the folder in its Go to
// Folder sheet and the name in its name field), the dialog's default button is pressed, an
// overwrite question is answered as asked, and the file on disk says whether it was saved.
#include "automation/Operations.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QThread>

#include <algorithm>

namespace Automation::Operations {

namespace {

/// How long the dialog has to close (and the file to appear) after its default button.
constexpr qint64 kSettleMs = 6000;

/// How long a dialog asked for just before the call has to show: a new GTK 4 file chooser takes
/// about half a second to be listed with its tree.
constexpr qint64 kFindDialogMs = 2000;

/// The app's windows as the window manager lists them, topmost first, minimized ones left out.
QList<WindowInfo> windowsOf(JobContext& ctx, qint64 pid)
{
    QList<WindowInfo> out;
    if (auto listed = ctx.backend.windows(ctx.call)) {
        for (qsizetype i = listed->size() - 1; i >= 0; --i) {
            if (listed->at(i).pid == pid && !listed->at(i).minimized)
                out.append(listed->at(i));
        }
    }
    return out;
}

QString plain(QString title)
{
    title.remove(QLatin1Char('_'));
    title.remove(QLatin1Char('&'));
    return title.trimmed();
}

/// Whether the file at `path` was written since the call `started`: there, modified since, and
/// (when it existed before) no longer as it was.
bool writtenSince(const QString& path, const QDateTime& started, bool existedBefore, const QDateTime& modifiedBefore)
{
    const QFileInfo now(path);
    return now.exists() && now.lastModified().toSecsSinceEpoch() >= started.toSecsSinceEpoch() &&
           (!existedBefore || now.lastModified() != modifiedBefore);
}

/// After a save: whether the file was written, and its size (-1: none).
void recordSave(const FileDialogRequest& request, FileDialogResult& out, const QDateTime& started,
                const QDateTime& modifiedBefore)
{
    if (!request.save)
        return;
    out.savedPathVerified = writtenSince(request.path, started, out.existedBefore, modifiedBefore);
    out.size = QFileInfo::exists(request.path) ? QFileInfo(request.path).size() : -1;
}

bool isButton(const Node& node, const QString& identifier, const QStringList& titles)
{
    return node.role == QLatin1String("AXButton") && ((!identifier.isEmpty() && node.identifier == identifier) ||
                                                      titles.contains(plain(node.title), Qt::CaseInsensitive));
}

/// An AppKit open or save panel (NSOpenPanel, NSSavePanel; a sheet of the document's window or a
/// window of its own): its default and Cancel buttons (by identifier, OKButton and CancelButton,
/// or by title) beside a name field or a file browser. A "Save changes?" sheet has the buttons
/// but neither.
bool isAppKitPanel(const Snapshot& snapshot)
{
    bool ok = false;
    bool cancel = false;
    bool files = false;
    for (const Node& node : snapshot.nodes) {
        if (node.identifier.contains(QLatin1String("NSSavePanel")) ||
            node.identifier.contains(QLatin1String("NSOpenPanel")))
            return true;
        ok = ok || isButton(node, QStringLiteral("OKButton"),
                            {QStringLiteral("Save"), QStringLiteral("Open"), QStringLiteral("Choose")});
        cancel = cancel || isButton(node, QStringLiteral("CancelButton"), {QStringLiteral("Cancel")});
        files = files || node.identifier == QLatin1String("saveAsNameTextField") ||
                node.role == QLatin1String("AXBrowser") || node.role == QLatin1String("AXOutline");
    }
    return ok && cancel && files;
}

/// Which toolkit drew the dialog: "gtk" (GtkFileChooser, 3 or 4), "qt" (QFileDialog), "appkit"
/// (macOS's panels); empty when the window is no file dialog.
QString toolkitOf(const Snapshot& snapshot, bool macos)
{
    if (macos)
        return isAppKitPanel(snapshot) ? QStringLiteral("appkit") : QString();
    static const QRegularExpression qtName(QStringLiteral("^File name:?$"), QRegularExpression::CaseInsensitiveOption);
    for (const Node& node : snapshot.nodes) {
        if (node.nativeRole == QLatin1String("file chooser") || node.title == QLatin1String("GtkFileChooserWidget"))
            return QStringLiteral("gtk");
    }
    for (const Node& node : snapshot.nodes) {
        if (qtName.match(plain(node.title)).hasMatch())
            return QStringLiteral("qt");
    }
    return {};
}

Route windowRoute(qint64 pid, const QString& title)
{
    Route route;
    route.pid = pid;
    route.windowTitlePattern = QLatin1Char('^') + QRegularExpression::escape(title) + QLatin1Char('$');
    route.focusPolicy = FocusPolicy::FocusIfNeeded;
    return route;
}

Result<HotkeyResult> press(JobContext& ctx, const Route& route, const QStringList& keys)
{
    auto chord = parseKeyChord(keys);
    if (!chord)
        return chord.error();
    return hotkey(ctx, HotkeyRequest{route, chord.value(), 50});
}

/// The button of an overwrite question that replaces (GTK's "Replace", Qt's "Yes").
std::optional<Node> replaceButton(const Snapshot& snapshot)
{
    for (const Node& node : snapshot.nodes) {
        const QString title = plain(node.title);
        if (node.role == QLatin1String("AXButton") &&
            (title.startsWith(QLatin1String("Replace")) || title == QLatin1String("Yes")))
            return node;
    }
    return std::nullopt;
}

/// What a question or a refusal shown over the dialog says: its labels' text.
QString messageOf(const Snapshot& snapshot)
{
    QStringList lines;
    for (const Node& node : snapshot.nodes) {
        if ((node.role == QLatin1String("AXStaticText") || node.nativeRole == QLatin1String("label")) &&
            !node.title.trimmed().isEmpty())
            lines.append(node.title.trimmed());
    }
    return lines.join(QLatin1Char(' '));
}

/// A field that takes text: a text field or the combo box older Go to Folder sheets have.
bool isField(const Node& node)
{
    return node.role == QLatin1String("AXTextField") || node.role == QLatin1String("AXComboBox");
}

QString pathKey(const Node& node)
{
    QStringList parts;
    for (int index : node.path)
        parts.append(QString::number(index));
    return node.role + QLatin1Char(':') + parts.join(QLatin1Char('.'));
}

TargetSpec targetOf(const Node& node)
{
    Selector selector;
    selector.byRole = node.role;
    selector.byPath = node.path;
    TargetSpec target;
    target.selector = selector;
    return target;
}

/// AppKit's panel, driven as a person does: Command-Shift-G opens its Go to Folder sheet, which
/// takes the folder (the file's whole path in an open panel, which then selects it); the name
/// goes into the save panel's name field (a path typed there would be a name with colons); the
/// default button saves or opens; a "Replace" sheet over the panel is answered as asked. Nothing
/// is typed before the host saw the sheet it types into.
class AppKitPanel
{
public:
    AppKitPanel(JobContext& ctx, Locator& locator, const FileDialogRequest& request, const Route& route,
                FileDialogResult& out)
        : m_ctx(ctx), m_locator(locator), m_request(request), m_route(route), m_out(out)
    {
    }

    Status run(const QDateTime& started, const QDateTime& modifiedBefore)
    {
        const QFileInfo target(m_request.path);
        auto before = look();
        if (!before)
            return before.error();
        QSet<QString> sheetsBefore;
        for (const Node& node : before->nodes) {
            if (node.role == QLatin1String("AXSheet"))
                sheetsBefore.insert(pathKey(node));
        }

        // The Go to Folder sheet: the field that appears after Command-Shift-G.
        if (auto shown = press({QStringLiteral("cmd"), QStringLiteral("shift"), QStringLiteral("g")}); !shown)
            return shown.error();
        std::optional<Node> goTo;
        QElapsedTimer waiting;
        waiting.start();
        while (!goTo) {
            auto now = look();
            if (!now)
                return now.error();
            goTo = goToField(now.value(), sheetsBefore);
            if (goTo || waiting.elapsed() >= kSheetMs)
                break;
            QThread::msleep(100);
        }
        if (!goTo)
            return Error::make(ErrorCode::InvalidRequest,
                               QStringLiteral("the panel showed no Go to Folder sheet after Command-Shift-G (a "
                                              "collapsed panel ignores it): nothing was typed"),
                               QJsonObject{{QStringLiteral("reason"), QStringLiteral("go_to_folder_unavailable")}})
                .withRetryable(false);

        const QString whereTo = m_request.save ? target.absolutePath() : target.absoluteFilePath();
        if (auto typed = type(*goTo, whereTo); !typed) {
            dismissGoTo(*goTo);
            return afterTyping(typed.error());
        }
        if (auto went = press({QStringLiteral("enter")}); !went) {
            dismissGoTo(*goTo);
            return afterTyping(went.error());
        }
        // The sheet closes once the panel is in the folder; one that stays says why.
        bool gone = false;
        QString message;
        waiting.restart();
        while (!gone) {
            auto now = look();
            if (!now)
                return afterTyping(now.error());
            gone = std::none_of(now->nodes.cbegin(), now->nodes.cend(),
                                [&](const Node& node) { return pathKey(node) == pathKey(*goTo); });
            message = messageOf(now.value());
            if (gone || waiting.elapsed() >= kSheetMs)
                break;
            QThread::msleep(100);
        }
        if (!gone) {
            dismissGoTo(*goTo);
            return afterTyping(Error::make(ErrorCode::InvalidRequest,
                                           QStringLiteral("the panel did not go to %1: %2").arg(whereTo, message),
                                           QJsonObject{{QStringLiteral("field"), QStringLiteral("path")},
                                                       {QStringLiteral("reason"), QStringLiteral("name_refused")},
                                                       {QStringLiteral("dialogMessage"), message}}));
        }

        auto panel = look();
        if (!panel)
            return afterTyping(panel.error());
        if (m_request.save) {
            const std::optional<Node> name = nameField(panel.value());
            if (!name)
                return afterTyping(
                    Error::make(ErrorCode::ElementNotFound, QStringLiteral("the save panel has no name field"),
                                QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_name_field")}}));
            if (auto typed = type(*name, target.fileName()); !typed)
                return afterTyping(typed.error());
        }
        const std::optional<Node> ok = defaultButton(panel.value());
        if (!ok)
            return afterTyping(
                Error::make(ErrorCode::ElementNotFound, QStringLiteral("the panel has no default button"),
                            QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_default_button")}}));
        if (auto pressed = click(*ok); !pressed)
            return afterTyping(pressed.error());
        return settle(started, modifiedBefore);
    }

private:
    /// How long a sheet has to show or close.
    static constexpr qint64 kSheetMs = 2000;
    /// The longest one look at the panel may take.
    static constexpr int kLookMs = 1500;

    Result<Snapshot> look()
    {
        Route looking = m_route;
        looking.focusPolicy.reset();
        auto window = m_locator.resolveRoute(looking, false);
        if (!window)
            return window.error();
        // A short look: an app busy writing the file must not hold the call past its settle time.
        SnapshotBounds bounds = searchBounds(m_ctx.call, false);
        bounds.maxWallTimeMs = std::min(bounds.maxWallTimeMs, kLookMs);
        return m_locator.snapshot(window.value(), bounds);
    }

    Result<HotkeyResult> press(const QStringList& keys) { return Operations::press(m_ctx, m_route, keys); }

    Status type(const Node& field, const QString& text)
    {
        TypeRequest typing;
        typing.route = m_route;
        typing.target = targetOf(field);
        typing.text = text;
        typing.clearBefore = true;
        auto typed = typeText(m_ctx, typing);
        if (!typed)
            return typed.error();
        m_out.typed = effectName(typed->outcome.verification.effect);
        // A field that does not hold what was typed: the panel would go elsewhere or save under
        // another name, so the default button is not pressed.
        const Effect effect = typed->outcome.verification.effect;
        if (effect == Effect::Partial || effect == Effect::SuspectedNoop)
            return afterTyping(Error::make(ErrorCode::InvalidRequest,
                                           QStringLiteral("the panel's field does not hold what was typed (%1): "
                                                          "nothing was saved or opened")
                                               .arg(m_out.typed),
                                           QJsonObject{{QStringLiteral("field"), QStringLiteral("path")},
                                                       {QStringLiteral("reason"), QStringLiteral("name_not_taken")},
                                                       {QStringLiteral("typedEffect"), m_out.typed}}));
        return success();
    }

    Status click(const Node& button)
    {
        ClickRequest request;
        request.route = m_route;
        request.target = targetOf(button);
        auto clicked = Operations::click(m_ctx, request);
        if (!clicked)
            return clicked.error();
        return success();
    }

    /// An error after something was typed: not retryable, and it says so.
    static Error afterTyping(Error error)
    {
        error.details.insert(QStringLiteral("typed"), true);
        return error.withRetryable(false);
    }

    /// The Go to Folder sheet's field: a text field or combo box in a sheet that was not there
    /// before Command-Shift-G (rows a file browser adds meanwhile are in no new sheet).
    static std::optional<Node> goToField(const Snapshot& panel, const QSet<QString>& sheetsBefore)
    {
        for (const Node& node : panel.nodes) {
            if (!isField(node) || node.identifier == QLatin1String("saveAsNameTextField"))
                continue;
            int sheet = node.parent;
            while (sheet >= 0 && panel.nodes.at(sheet).role != QLatin1String("AXSheet"))
                sheet = panel.nodes.at(sheet).parent;
            if (sheet >= 0 && !sheetsBefore.contains(pathKey(panel.nodes.at(sheet))))
                return node;
        }
        return std::nullopt;
    }

    /// Closes the Go to Folder sheet when it is still there (Escape closes the top sheet only;
    /// sent to a panel without it, Escape would cancel the panel).
    void dismissGoTo(const Node& field)
    {
        auto now = look();
        if (now && std::any_of(now->nodes.cbegin(), now->nodes.cend(),
                               [&](const Node& node) { return pathKey(node) == pathKey(field); }))
            (void)press({QStringLiteral("esc")});
    }

    static std::optional<Node> nameField(const Snapshot& panel)
    {
        for (const Node& node : panel.nodes) {
            if (node.role == QLatin1String("AXTextField") && node.identifier == QLatin1String("saveAsNameTextField"))
                return node;
        }
        // Without the identifier: the field labelled as the name ("Save As:", "Export As:"),
        // never the Tags field.
        for (const Node& node : panel.nodes) {
            const QString words = node.title + QLatin1Char(' ') + node.description;
            if (node.role == QLatin1String("AXTextField") &&
                words.contains(QLatin1String(" As"), Qt::CaseInsensitive) &&
                !words.contains(QLatin1String("Tags"), Qt::CaseInsensitive))
                return node;
        }
        return std::nullopt;
    }

    static std::optional<Node> defaultButton(const Snapshot& panel)
    {
        for (const Node& node : panel.nodes) {
            if (node.role == QLatin1String("AXButton") && node.identifier == QLatin1String("OKButton"))
                return node;
        }
        for (const Node& node : panel.nodes) {
            if (isButton(node, QString(), {QStringLiteral("Save"), QStringLiteral("Open"), QStringLiteral("Choose")}))
                return node;
        }
        return std::nullopt;
    }

    /// After the default button: the panel closes (the file written, for a save) or a
    /// "Replace" sheet asks first.
    Status settle(const QDateTime& started, const QDateTime& modifiedBefore)
    {
        QElapsedTimer waited;
        waited.start();
        const qint64 settleMs = std::min<qint64>(kSettleMs, std::max<qint64>(m_ctx.call.remainingMs() - 500, 500));
        // Whether the last look saw the panel: an app busy writing the file may answer no look,
        // and a look cut short may miss the panel's buttons; neither says it closed.
        bool panelSeen = true;
        while (true) {
            if (auto stop = m_ctx.call.checkpoint())
                return afterTyping(*stop);
            const bool written = writtenSince(m_request.path, started, m_out.existedBefore, modifiedBefore);
            auto seen = look();
            const bool windowGone = !seen && seen.error().code == ErrorCode::ElementNotFound;
            const bool known = windowGone || (seen && !seen->truncated);
            m_out.closed = windowGone || (known && !isAppKitPanel(seen.value()));
            panelSeen = known && !m_out.closed;
            if (m_out.closed && (!m_request.save || written))
                break;
            if (!known && m_request.save && written)
                break; // on disk; the panel's state is not known
            if (panelSeen) {
                if (const std::optional<Node> replace = replaceButton(seen.value()); replace && !m_out.replaced) {
                    if (!m_request.save || !m_request.replace) {
                        const QString message = messageOf(seen.value());
                        (void)press({QStringLiteral("esc")});
                        return afterTyping(Error::make(
                            ErrorCode::InvalidRequest,
                            QStringLiteral("%1 exists now and overwrite is never: the panel's question was dismissed")
                                .arg(m_request.path),
                            QJsonObject{{QStringLiteral("field"), QStringLiteral("path")},
                                        {QStringLiteral("reason"), QStringLiteral("file_exists")},
                                        {QStringLiteral("dialogMessage"), message}}));
                    }
                    // Answered once; a sheet still animating out is left to close.
                    if (auto clicked = click(*replace); !clicked)
                        return afterTyping(clicked.error());
                    m_out.replaced = true;
                }
            }
            if (waited.elapsed() >= settleMs)
                break;
            QThread::msleep(100);
        }
        recordSave(m_request, m_out, started, modifiedBefore);
        if (!m_out.closed && !(m_request.save && m_out.savedPathVerified)) {
            if (!panelSeen)
                return afterTyping(Error::make(
                    ErrorCode::TargetUnresponsive,
                    QStringLiteral("the app did not show whether its panel closed, and no file was written"),
                    QJsonObject{{QStringLiteral("reason"), QStringLiteral("panel_state_unknown")}}));
            return afterTyping(Error::make(
                ErrorCode::InvalidRequest, QStringLiteral("the panel is still open: it did not take the path"),
                QJsonObject{{QStringLiteral("field"), QStringLiteral("path")},
                            {QStringLiteral("reason"), QStringLiteral("dialog_still_open")}}));
        }
        m_out.effect =
            (!m_request.save || m_out.savedPathVerified) ? QStringLiteral("confirmed") : QStringLiteral("unverifiable");
        return success();
    }

    JobContext& m_ctx;
    Locator& m_locator;
    const FileDialogRequest& m_request;
    Route m_route;
    FileDialogResult& m_out;
};

} // namespace

Result<FileDialogResult> fileDialog(JobContext& ctx, const FileDialogRequest& request)
{
    TraceStep step(ctx.trace, QStringLiteral("fileDialog"));
    const QDateTime started = QDateTime::currentDateTimeUtc();
    FileDialogResult out;
    const QFileInfo target(request.path);
    const QString folder = target.absolutePath();
    const auto refuse = [&](const QString& reason, const QString& message) {
        Error error = Error::make(ErrorCode::InvalidRequest, message,
                                  QJsonObject{{QStringLiteral("field"), QStringLiteral("path")},
                                              {QStringLiteral("reason"), reason},
                                              {QStringLiteral("path"), request.path}})
                          .withRetryable(false);
        step.finish(false, error.toJson());
        return error;
    };
    // The disk first: nothing is typed into a dialog for a path that cannot be what was asked.
    if (!QFileInfo(folder).isDir())
        return refuse(QStringLiteral("folder_not_found"), QStringLiteral("the folder %1 does not exist").arg(folder));
    if (target.isDir())
        return refuse(QStringLiteral("is_folder"), QStringLiteral("%1 is a folder").arg(request.path));
    out.existedBefore = target.exists();
    const QDateTime modifiedBefore = target.exists() ? target.lastModified() : QDateTime();
    if (request.save && out.existedBefore && !request.replace)
        return refuse(QStringLiteral("file_exists"),
                      QStringLiteral("%1 exists (%2 bytes) and overwrite is never: nothing was typed")
                          .arg(request.path)
                          .arg(target.size()));
    if (!request.save && !target.isFile())
        return refuse(QStringLiteral("file_not_found"),
                      QStringLiteral("there is no file %1 to open").arg(request.path));

    // The dialog: the modal window over the route's window, or the route's window itself.
    Locator locator(ctx);
    Route front = request.route;
    front.focusPolicy.reset();
    auto resolved = locator.resolveRoute(front, false);
    if (!resolved) {
        step.finish(false, resolved.error().toJson());
        return resolved.error();
    }
    // Where the dialog may be: the modal window over the route's window, the route's window, then
    // the app's other windows, topmost first (GTK 4.8 says its dialog is neither showing nor
    // modal over accessibility; the window manager lists it). A dialog asked for just before
    // may take a moment to show: looked for again for up to 2 s.
    QString title = resolved->blockingModal.value_or(resolved->windowTitle);
    const bool macos = ctx.backend.info().name == QLatin1String("macos");
    Route dialogRoute;
    QElapsedTimer looking;
    looking.start();
    std::optional<Error> lastError;
    while (out.toolkit.isEmpty()) {
        // The modal window first, then the app's other windows, the route's own window last.
        QStringList titles;
        if (resolved->blockingModal)
            titles.append(*resolved->blockingModal);
        for (const WindowInfo& window : windowsOf(ctx, resolved->pid)) {
            if (!titles.contains(window.title) && window.title != resolved->windowTitle)
                titles.append(window.title);
        }
        titles.append(resolved->windowTitle);
        for (const QString& candidate : std::as_const(titles)) {
            if (auto stop = ctx.call.checkpoint()) {
                step.finish(false, stop->toJson());
                return *stop;
            }
            Route route = windowRoute(resolved->pid, candidate);
            // Looked at as it is: raising each candidate would reorder the person's windows.
            Route looking = route;
            looking.focusPolicy.reset();
            auto window = locator.resolveRoute(looking, false);
            if (!window) {
                lastError = window.error();
                continue;
            }
            auto tree = locator.snapshot(window.value(), searchBounds(ctx.call, false));
            if (!tree) {
                lastError = tree.error();
                continue;
            }
            if (const QString toolkit = toolkitOf(tree.value(), macos); !toolkit.isEmpty()) {
                out.toolkit = toolkit;
                out.dialog = window.value();
                title = candidate;
                dialogRoute = route;
                break;
            }
        }
        if (!out.toolkit.isEmpty() || looking.elapsed() >= kFindDialogMs)
            break;
        QThread::msleep(200);
    }
    // An app that did not answer while it was looked at: that, not "no dialog".
    if (out.toolkit.isEmpty() && lastError && lastError->code != ErrorCode::ElementNotFound) {
        step.finish(false, lastError->toJson());
        return *lastError;
    }
    if (out.toolkit.isEmpty()) {
        Error error =
            Error::make(ErrorCode::ElementNotFound, QStringLiteral("\"%1\" is no open or save dialog").arg(title),
                        QJsonObject{{QStringLiteral("reason"), QStringLiteral("no_file_dialog")},
                                    {QStringLiteral("window"), title},
                                    {QStringLiteral("pid"), resolved->pid}});
        step.finish(false, error.toJson());
        return error;
    }

    if (out.toolkit == QLatin1String("appkit")) {
        AppKitPanel panel(ctx, locator, request, dialogRoute, out);
        auto done = panel.run(started, modifiedBefore);
        step.finish(done.ok(), done ? QJsonObject{{QStringLiteral("toolkit"), out.toolkit},
                                                  {QStringLiteral("closed"), out.closed},
                                                  {QStringLiteral("savedPathVerified"), out.savedPathVerified},
                                                  {QStringLiteral("size"), out.size},
                                                  {QStringLiteral("replaced"), out.replaced}}
                                    : done.error().toJson());
        if (!done)
            return done.error();
        return out;
    }

    // GTK's open dialog shows its location entry on Ctrl+L; its save dialog's name entry and
    // Qt's file-name field take a whole path as they are.
    if (!request.save && out.toolkit == QLatin1String("gtk")) {
        if (auto shown = press(ctx, dialogRoute, {QStringLiteral("ctrl"), QStringLiteral("l")}); !shown) {
            step.finish(false, shown.error().toJson());
            return shown.error();
        }
    }
    TypeRequest typing;
    typing.route = dialogRoute;
    typing.text = request.path;
    typing.clearBefore = true;
    auto typed = typeText(ctx, typing);
    if (!typed) {
        step.finish(false, typed.error().toJson());
        return typed.error();
    }
    out.typed = effectName(typed->outcome.verification.effect);
    // Windows the app shows now: one that appears after Enter is a question about the path.
    QSet<QString> shownBefore;
    for (const WindowInfo& window : windowsOf(ctx, out.dialog.pid))
        shownBefore.insert(window.nativeId.isEmpty() ? window.title : window.nativeId);
    // The default button (Save, Open): Enter in the field activates it in GTK 3, GTK 4 and Qt.
    if (auto accepted = press(ctx, dialogRoute, {QStringLiteral("enter")}); !accepted) {
        Error error = accepted.error();
        error.details.insert(QStringLiteral("typed"), true);
        step.finish(false, error.toJson());
        return error.withRetryable(false);
    }

    QElapsedTimer waited;
    waited.start();
    const qint64 settleMs = std::min<qint64>(kSettleMs, std::max<qint64>(ctx.call.remainingMs() - 500, 500));
    bool answered = false;
    while (true) {
        if (auto stop = ctx.call.checkpoint()) {
            Error error = *stop;
            error.details.insert(QStringLiteral("typed"), true);
            step.finish(false, error.toJson());
            return error.withRetryable(false);
        }
        const bool written = writtenSince(request.path, started, out.existedBefore, modifiedBefore);
        auto still = resolveRouteOnDisplay(ctx.backend, dialogRoute, ctx.call);
        if (!still && still.error().code == ErrorCode::ElementNotFound) {
            out.closed = true;
            if (!request.save || written)
                break;
        } else if (still && !answered) {
            // A question over the dialog: a window of the app that was not there before Enter
            // (GTK's overwrite question is modal to the dialog, so no route says it blocks).
            std::optional<QString> questionTitle = still->blockingModal;
            for (const WindowInfo& window : windowsOf(ctx, still->pid)) {
                if (questionTitle)
                    break;
                const QString key = window.nativeId.isEmpty() ? window.title : window.nativeId;
                if (!shownBefore.contains(key) && window.title != title)
                    questionTitle = window.title;
            }
            if (!questionTitle) {
                if (waited.elapsed() >= settleMs)
                    break;
                QThread::msleep(100);
                continue;
            }
            const Route questionRoute = windowRoute(still->pid, *questionTitle);
            Route questionLook = questionRoute;
            questionLook.focusPolicy.reset();
            auto question = locator.resolveRoute(questionLook, false);
            std::optional<Node> replace;
            QString message;
            if (question) {
                if (auto seen = locator.snapshot(question.value(), searchBounds(ctx.call, false))) {
                    replace = replaceButton(seen.value());
                    message = messageOf(seen.value());
                }
            }
            if (replace && request.save && request.replace) {
                ClickRequest click;
                click.route = questionRoute;
                Selector selector;
                selector.byRole = QStringLiteral("AXButton");
                selector.title = TextMatch{TextMatch::Mode::Equals, replace->title, {}};
                click.target.selector = selector;
                if (auto clicked = Operations::click(ctx, click); !clicked) {
                    Error error = clicked.error();
                    error.details.insert(QStringLiteral("typed"), true);
                    step.finish(false, error.toJson());
                    return error.withRetryable(false);
                }
                out.replaced = true;
                answered = true;
            } else {
                // Not asked to replace (the file appeared since the host looked), or the toolkit
                // refused the name: the question is dismissed and its words answered.
                (void)press(ctx, questionRoute, {QStringLiteral("esc")});
                Error error = Error::make(
                    ErrorCode::InvalidRequest,
                    replace ? QStringLiteral("%1 exists now and overwrite is never: the dialog's question was "
                                             "dismissed")
                                  .arg(request.path)
                            : QStringLiteral("the dialog refused the path: %1").arg(message),
                    QJsonObject{{QStringLiteral("field"), QStringLiteral("path")},
                                {QStringLiteral("reason"),
                                 replace ? QStringLiteral("file_exists") : QStringLiteral("name_refused")},
                                {QStringLiteral("dialogMessage"), message},
                                {QStringLiteral("typed"), true}});
                step.finish(false, error.toJson());
                return error.withRetryable(false);
            }
        }
        if (waited.elapsed() >= settleMs)
            break;
        QThread::msleep(100);
    }
    recordSave(request, out, started, modifiedBefore);
    if (!out.closed) {
        Error error =
            Error::make(ErrorCode::InvalidRequest,
                        QStringLiteral("the dialog \"%1\" is still open: it did not take the path").arg(title),
                        QJsonObject{{QStringLiteral("field"), QStringLiteral("path")},
                                    {QStringLiteral("reason"), QStringLiteral("dialog_still_open")},
                                    {QStringLiteral("typed"), true}});
        step.finish(false, error.toJson());
        return error.withRetryable(false);
    }
    out.effect =
        (!request.save || out.savedPathVerified) ? QStringLiteral("confirmed") : QStringLiteral("unverifiable");
    step.finish(true, QJsonObject{{QStringLiteral("toolkit"), out.toolkit},
                                  {QStringLiteral("closed"), out.closed},
                                  {QStringLiteral("savedPathVerified"), out.savedPathVerified},
                                  {QStringLiteral("size"), out.size},
                                  {QStringLiteral("replaced"), out.replaced},
                                  {QStringLiteral("waitedMs"), waited.elapsed()}});
    return out;
}

} // namespace Automation::Operations
