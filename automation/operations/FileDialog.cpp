// desktop.fileDialog: a path saved or opened through the open/save dialog the route's app shows
// (docs/protocol.md §5.32). The disk is looked at first, by the host itself (not every dialog
// asks before it replaces a file); the path goes into the dialog's name field (GTK 3 and 4's
// name or location entry, Qt's file-name field), the dialog's default button is pressed, an
// overwrite question is answered as asked, and the file on disk says whether it was saved.
#include "automation/Operations.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QThread>

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

/// Which toolkit drew the dialog: "gtk" (GtkFileChooser, 3 or 4), "qt" (QFileDialog); empty
/// when the window is no file dialog.
QString toolkitOf(const Snapshot& snapshot)
{
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
            if (const QString toolkit = toolkitOf(tree.value()); !toolkit.isEmpty()) {
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
    if (out.toolkit.isEmpty() && ctx.backend.info().name == QLatin1String("macos")) {
        // NSSavePanel and NSOpenPanel (their go-to-folder sheet) are not driven yet.
        Error error = Error::make(ErrorCode::InvalidRequest,
                                  QStringLiteral("desktop.fileDialog does not drive macOS's open and save panels yet"),
                                  QJsonObject{{QStringLiteral("reason"), QStringLiteral("unsupported")},
                                              {QStringLiteral("window"), title}})
                          .withRetryable(false);
        step.finish(false, error.toJson());
        return error;
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
        const QFileInfo now(request.path);
        const bool written = now.exists() && now.lastModified().toSecsSinceEpoch() >= started.toSecsSinceEpoch() &&
                             (!out.existedBefore || now.lastModified() != modifiedBefore);
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
    const QFileInfo after(request.path);
    if (request.save) {
        out.savedPathVerified = after.exists() &&
                                after.lastModified().toSecsSinceEpoch() >= started.toSecsSinceEpoch() &&
                                (!out.existedBefore || after.lastModified() != modifiedBefore);
        out.size = after.exists() ? after.size() : -1;
    }
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
