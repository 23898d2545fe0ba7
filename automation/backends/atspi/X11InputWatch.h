#pragma once

#include "automation/CallContext.h"

#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QMutex>
#include <QPoint>
#include <QString>
#include <QWaitCondition>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <thread>

namespace Automation {

/// Notices the person at the desktop while the host injects input (docs/protocol.md §5.24,
/// "Yielding to the person at the desktop"). Its own X connection reads the XInput2 raw event
/// stream (key presses, button presses, pointer motion of every device) on its own thread, and
/// while armed reads where the pointer is every 20 ms (a warped pointer, as xdotool moves it,
/// makes no raw event). An event from a device other than
/// the XTEST ones is the person's; one from an XTEST device (under Xvfb everything is, xdotool
/// included) is the host's own only when the host noted it just before: the same key or button,
/// or motion that left the pointer where the host put it. Anything else is foreign input.
///
/// While armed for a call that injects input: `Abort` cancels the call's token at once
/// (CancelToken::Reason::UserInput: the next checkpoint, before the next key, ends it); `Wait`
/// makes beforeInjection() hold until the person has been quiet for the quiet period (within
/// the call's deadline) and keeps the waits for the answer; `Off` only counts.
/// Thread-safe: the backend's thread notes and arms, the watch's thread reads events.
class X11InputWatch
{
public:
    enum class Mode { Abort, Wait, Off };
    static std::optional<Mode> modeFromName(const QString& name);
    static QString modeName(Mode mode);

    X11InputWatch();
    ~X11InputWatch();
    X11InputWatch(const X11InputWatch&) = delete;
    X11InputWatch& operator=(const X11InputWatch&) = delete;

    /// Opens its own connection to $DISPLAY and starts reading; false (with `error`) when there
    /// is no display or no XInput 2 (then nothing is watched, and health says so).
    bool start(QString* error);
    void stop();
    bool running() const { return m_running.load(); }

    void setMode(Mode mode);
    Mode mode() const;
    void setQuietMs(int ms);

    /// What the host is about to inject (called before the XTest request is sent).
    void noteKey(unsigned int keycode);
    void noteButton(unsigned int button);
    void noteMotion(QPoint to);

    /// Watches for the call from now until disarm() (an injecting backend call's scope).
    void arm(const CallContext& context);
    void disarm();
    /// What the injector should do next (beforeInjection).
    enum class Next { Go, Waited, Stop };
    /// Before an injected sequence (a key, a click, a move; never while the host holds a key or
    /// button: `holding`): in Abort mode, Stop (and the call's token cancelled) when the person
    /// used the keyboard or mouse since the call began; in Wait mode, holds while the person has
    /// been active within the quiet period (until quiet, cancelled or the deadline: then Stop),
    /// keeps the wait and answers Waited. Go otherwise. Nothing is injected after a Stop.
    Next beforeInjection(bool holding);
    /// The waits of the armed call so far: [{at (ISO UTC), ms}]; emptied by the call.
    QJsonArray takeYields();

    /// Foreign input seen since start (all modes), and when the last was (ms since the epoch, 0: never).
    quint64 foreignCount() const { return m_foreignCount.load(); }
    /// Whether the watch thread still reads events (false after an X error ended it).
    bool alive() const { return m_alive.load(); }
    qint64 lastForeignAtMs() const { return m_lastForeignEpochMs.load(); }
    /// Raw events read, for the benchmark and health.
    quint64 eventsRead() const { return m_eventsRead.load(); }

private:
    using Clock = std::chrono::steady_clock;
    enum class Kind { Key, Button, Motion };
    struct Noted
    {
        Kind kind;
        unsigned int detail = 0;
        QPoint at;
        Clock::time_point when;
        bool matched = false;
    };

    void run();
    /// One raw event, with the pointer's position for motion; true when it was foreign.
    bool classify(Kind kind, unsigned int detail, bool fromXtest, std::optional<QPoint> pointer);
    void foreign(Kind kind);
    void note(Noted noted);

    void* m_display = nullptr;
    int m_opcode = 0;
    int m_stopPipe[2] = {-1, -1};
    std::thread m_thread;
    std::atomic<bool> m_running{false};
    std::atomic<bool> m_alive{false};
    QHash<int, bool> m_xtestDevice;          ///< source device id -> an XTEST device (watch thread only)
    std::atomic<bool> m_armedFlag{false};    ///< mirrors m_armed for the watch thread's polling
    std::atomic<bool> m_needBaseline{false}; ///< armed anew: the next pointer read is the baseline
    std::optional<QPoint> m_lastPointer;     ///< watch thread only

    mutable QMutex m_mutex;
    QWaitCondition m_changed;
    QList<Noted> m_noted;
    Mode m_mode = Mode::Abort;
    int m_quietMs = 1500;
    bool m_armed = false;
    int m_armDepth = 0; ///< nested scopes (an operation that calls another) arm once
    std::optional<CallContext> m_call;
    Clock::time_point m_armedAt;
    Clock::time_point m_lastForeign;
    bool m_anyForeign = false;
    /// When the host last injected (a note): foreign input within the grace period after it, or
    /// while it holds a key or button, stops the call at once; later input waits for the next
    /// injection (never for a check that injects nothing).
    Clock::time_point m_lastInjection;
    bool m_holding = false;
    bool m_foreignWhileArmed = false;
    QJsonArray m_yields;

    std::atomic<quint64> m_foreignCount{0};
    std::atomic<qint64> m_lastForeignEpochMs{0};
    std::atomic<quint64> m_eventsRead{0};
};

/// Arms the watch for one injecting backend call; disarms when it goes out of scope.
class InjectionScope
{
public:
    InjectionScope(X11InputWatch* watch, const CallContext& context) : m_watch(watch)
    {
        if (m_watch)
            m_watch->arm(context);
    }
    ~InjectionScope()
    {
        if (m_watch)
            m_watch->disarm();
    }
    InjectionScope(const InjectionScope&) = delete;
    InjectionScope& operator=(const InjectionScope&) = delete;

private:
    X11InputWatch* m_watch;
};

} // namespace Automation
