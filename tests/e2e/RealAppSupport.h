#pragma once

#include "E2eSupport.h"

#include <QDeadlineTimer>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QPointF>
#include <QProcessEnvironment>
#include <QRect>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <ostream>

// gtest finds these by argument-dependent lookup (Qt's types live in the global namespace):
// failures then show the text, and for bytes also the hex, rather than raw memory.
inline void PrintTo(const QString& value, std::ostream* os)
{
    *os << '"' << value.toStdString() << '"';
}

inline void PrintTo(const QByteArray& value, std::ostream* os)
{
    *os << '"' << value.toStdString() << "\" (hex " << value.toHex(' ').toStdString() << ')';
}

namespace Testing {

/// One node as pyatspi sees it (tests/e2e/data/atspi_probe.py), independently of the host.
struct ProbeNode
{
    QString role; ///< AT-SPI role name ("push button", "text", ...)
    QString name;
    QStringList states;
    std::optional<QString> text;  ///< the Text interface's whole text, when the node has one
    std::optional<QRect> extents; ///< screen coordinates
    QString window;               ///< name of the top-level window holding the node

    bool has(const QString& state) const { return states.contains(state); }
};

/// What to look for with the probe, and how long to wait for the count to lie in [minCount, maxCount].
struct ProbeQuery
{
    QString role;
    std::optional<QString> name;
    QString nameContains;
    QStringList states;
    std::optional<QString> windowName;
    int minCount = 0;
    int maxCount = -1; ///< -1: no upper bound
    int waitMs = 0;
    bool press = false; ///< action 0 of the first match: for cleaning up after a failure only
};

struct ProbeResult
{
    bool ok = false; ///< the count condition held
    QList<ProbeNode> nodes;
    QString error; ///< stderr, or why the probe could not run
};

/// Runs the probe against the app with `pid` (about 0.1-0.6 s per call).
ProbeResult probe(qint64 pid, const ProbeQuery& query);

/// An X top-level window as xdotool sees it.
struct XWindow
{
    QString id;
    QString name;
    QRect geometry; ///< screen coordinates
};

/// The visible X windows of `pid`.
QList<XWindow> xWindows(qint64 pid);
/// The largest visible X window of `pid` (the app's main window), if any.
std::optional<XWindow> mainXWindow(qint64 pid);
/// Polls the main window's title until `accept` takes it (or the time is up); the last title seen.
QString waitForWindowTitle(qint64 pid, const std::function<bool(const QString&)>& accept, int timeoutMs);

/// Polls a file until its content equals `expected` (or the time is up); the last content, or
/// nullopt when the file never existed.
std::optional<QByteArray> waitForFile(const QString& path, const QByteArray& expected, int timeoutMs);
/// The centre of the red pixels of `image` (tk_target.tcl's square, found as a model would find
/// it), or nothing when there are none.
std::optional<QPointF> redCentre(const QImage& image);

/// Calls `read` until it returns `expected` or `timeoutMs` has passed (apps show some effects a
/// moment after the answer: a shell's echo, a page's title); the last value read.
template <typename T, typename Read> T readUntil(Read read, const T& expected, int timeoutMs = 2000)
{
    QDeadlineTimer deadline(timeoutMs);
    while (true) {
        T value = read();
        if (value == expected || deadline.hasExpired())
            return value;
        QThread::msleep(100);
    }
}

/// Compact JSON for failure messages.
std::string dump(const QJsonObject& object);

/// The host's answer to a side-effect request for a natural task: a result whose `booleanField`
/// (clicked, typed, sent) is true and whose `effect` is "confirmed".
::testing::AssertionResult isConfirmed(const QJsonObject& response, const QString& booleanField);
/// The answer says the effect happened (the boolean is true).
bool answeredTrue(const QJsonObject& response, const QString& booleanField);

/// A real third-party app and the real host in the test's headless desktop: started once per
/// suite (and so once per ctest entry), stopped with the object. The app gets a private HOME and
/// XDG directories, so no run sees what an earlier one saved.
class RealAppSession
{
public:
    RealAppSession();
    ~RealAppSession();

    /// Starts the host and `program`, then waits (pyatspi) until `ready` holds. On failure,
    /// failure() says why; a missing program is a failure, not a reason to skip.
    bool start(const QString& program, const QStringList& args, const ProbeQuery& ready, int readyTimeoutMs = 20000);
    QString failure() const { return m_failure; }

    /// A private directory for the test's files (also the app's working directory and HOME).
    QString dir() const { return m_dir.path(); }
    qint64 pid() const { return m_app ? m_app->pid() : 0; }
    AppProcess& app() { return *m_app; }
    DesktopSession& desktop() { return m_desktop; }
    /// The app's environment (for apps that need more variables before start()).
    QProcessEnvironment& environment() { return m_env; }

    /// Route by the app's pid, and by window title when a pattern is given.
    QJsonObject route(const QString& windowTitlePattern = {}) const;

    /// Requests as a user writes them; each returns the whole response. typeText with an empty
    /// selector types into whatever has the keyboard focus.
    QJsonObject find(const QJsonObject& selector, const QString& window = {}, int timeoutMs = 15000);
    QJsonObject click(const QJsonObject& selector, const QString& window = {}, int timeoutMs = 15000);
    QJsonObject typeText(const QJsonObject& selector, const QString& text, bool clearBefore = false,
                         const QString& window = {}, int timeoutMs = 20000);
    QJsonObject hotkey(const QStringList& keys, int timeoutMs = 15000);
    /// Any method with the app's route (and the confirmation when `sideEffect`) added to `params`.
    QJsonObject call(const QString& method, QJsonObject params, bool sideEffect = false, int timeoutMs = 20000);
    QJsonObject waitUntil(const QJsonObject& selector, int timeoutMs, int pollMs = 200, const QString& window = {});

    /// Asks for a token to type `text` into `selector` (desktop.confirm.issue) and returns the
    /// audit log's approval line for it: it says whether the confirmation hid the text and why
    /// ("textMasked"). The headless host has nobody to ask, so the request itself is denied.
    QJsonObject approvalForTyping(const QJsonObject& selector, const QString& text, int timeoutMs = 15000);

    /// The probe against this app.
    ProbeResult probe(const ProbeQuery& query) const { return Testing::probe(pid(), query); }

private:
    /// The response, or when none came, what is known about the host (for failure messages).
    QJsonObject answer(const QJsonObject& response);

    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    DesktopSession m_desktop;
    std::unique_ptr<AppProcess> m_app;
    QString m_failure;
};

/// Another program's window that stays above the others (tests/e2e/data/cover_window.py), over
/// `rect`; closed with the object.
class CoverWindow
{
public:
    CoverWindow(const QProcessEnvironment& environment, const QRect& rect, const QString& title);
    ~CoverWindow();
    /// Mapped, and xdotool sees it.
    bool shown() const { return m_shown; }
    void close();

private:
    QProcess m_process;
    bool m_shown = false;
};

/// A text editor's document as pyatspi sees it: the app's one multi-line editable text.
ProbeQuery documentQuery();
/// The text of the one node `query` matches in `app`, or nullopt when not exactly one does.
std::optional<QString> soleText(const RealAppSession& app, const ProbeQuery& query);

/// A selector as a user writes it: an AX role and a visible title.
QJsonObject byRoleAndTitle(const QString& role, const QString& title);

/// The confirmation a side-effect request carries (the headless host accepts the phrase).
QJsonObject confirmPhrase();

/// The frame every real-app suite shares: one app per suite in `s_app` (each suite's own, made
/// by its SetUpTestSuite), stopped after the suite; a test is skipped only when there is no
/// headless desktop, and fails when the app did not start or has gone.
template <typename Suite> class RealAppTest : public ::testing::Test
{
protected:
    static void TearDownTestSuite()
    {
        delete s_app;
        s_app = nullptr;
    }
    void SetUp() override
    {
        QString why;
        if (!DesktopSession::available(&why))
            GTEST_SKIP() << why.toStdString();
        ASSERT_NE(s_app, nullptr);
        ASSERT_TRUE(s_app->failure().isEmpty()) << s_app->failure().toStdString();
        ASSERT_EQ(s_app->app().process().state(), QProcess::Running);
    }

    /// For a suite's SetUpTestSuite: `program` started in a session of its own, ready once
    /// `ready` matches; nothing where there is no headless desktop (SetUp skips then).
    static void startApp(const QString& program, const QStringList& args, const ProbeQuery& ready)
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        s_app->start(program, args, ready);
    }

    static inline RealAppSession* s_app = nullptr;
};

/// One MCP tool call in a fresh `msgcode-desktop-mcp mcp` process, msgcode's sequence
/// (initialize, initialized, tools/list, tools/call, SIGTERM), against `app`'s host; the
/// tools/call result.
QJsonObject callTool(RealAppSession& app, const QString& name, const QJsonObject& arguments);
/// The JSON of a tool result's first text item (ghost-os's {success, data, …}).
QJsonObject structured(const QJsonObject& result);

} // namespace Testing
