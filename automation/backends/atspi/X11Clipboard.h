#pragma once

#include "automation/Error.h"
#include "automation/Types.h"

#include <QString>

#include <chrono>

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace Automation {

/// Owns the X CLIPBOARD selection for typeText's paste path: it reads what the clipboard holds,
/// offers the text to paste, and afterwards offers the previous text again (unless someone
/// else took the clipboard meanwhile), serving requests from its own X connection on its own
/// thread for as long as it owns the selection. Only text can be saved and restored: when the
/// clipboard holds something else, paste() refuses, so nothing the person copied is lost.
class X11Clipboard
{
public:
    X11Clipboard();
    ~X11Clipboard();
    X11Clipboard(const X11Clipboard&) = delete;
    X11Clipboard& operator=(const X11Clipboard&) = delete;

    enum class Outcome {
        Pasted,        ///< the text was served to a requestor and the old clipboard is back
        NotRestorable, ///< the clipboard holds non-text data: nothing was changed
        NotRequested,  ///< nobody asked for the text (the paste did not happen)
        Failed,
    };
    struct Result
    {
        Outcome outcome = Outcome::Failed;
        bool restored = false;         ///< the previous text (or emptiness) is what the clipboard offers now
        bool changedMeanwhile = false; ///< another owner took the clipboard: it was left alone
        QString error;
    };

    /// Offers `text`, calls `pressPaste` (which injects the paste chord), waits up to
    /// `waitMs` for the target to fetch it, then restores the previous content.
    Result paste(const QString& text, const std::function<bool()>& pressPaste, int waitMs);

    /// What the clipboard holds, asked through a connection of its own as any app would ask
    /// (this owner's offer included): the formats, the text, an image as PNG. A clipboard a
    /// password manager marked secret (x-kde-passwordManagerHint) is not read.
    Automation::Result<ClipboardContent> read(int waitMs);
    /// Offers `text` until someone else copies, reads it back through a connection of its own,
    /// and after `restoreAfterMs` (0: never) offers the previous text again unless the
    /// clipboard changed meanwhile.
    Automation::Result<ClipboardWrite> write(const QString& text, int restoreAfterMs, int waitMs);

private:
    bool open(QString* error);
    void serve();
    std::optional<QString> readCurrent(bool* isText, QString* error);

    void* m_display = nullptr;
    unsigned long m_window = 0;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    std::optional<QByteArray> m_offer; ///< UTF-8 served to requestors; nullopt: not owning
    int m_served = 0;
    bool m_lost = false;
    /// A write's restore: at `m_restoreAt`, offer this (nullopt inside: give the clipboard up,
    /// it was empty) unless someone else copied meanwhile.
    std::optional<std::optional<QByteArray>> m_restore;
    std::chrono::steady_clock::time_point m_restoreAt;
    void stopServing();
    void restoreIfDue();
};

} // namespace Automation
