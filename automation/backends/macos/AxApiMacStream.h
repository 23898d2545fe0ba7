// The event stream's own thread (AxApi::streamNotices), internal to AxApiMac. Objective-C++.
#pragma once

#include "automation/backends/macos/AxApiMacSupport.h"
#include "automation/backends/macos/NoticeGate.h"

namespace Automation::Mac::AppleInternal {

/// The event stream's own thread (AxApi::streamNotices): an observer per regular app on its run
/// loop, the set of apps kept current by a timer, each notice's element read there under a short
/// messaging timeout. Never touches the worker's observers, elements or run loop.
class NoticeStream
{
public:
    explicit NoticeStream(AxApi::NoticeSink sink) : m_sink(std::move(sink))
    {
        m_thread = std::thread([this] { run(); });
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return m_runLoop != nullptr; });
    }
    ~NoticeStream()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        CFRunLoopStop(m_runLoop);
        CFRunLoopWakeUp(m_runLoop);
        m_thread.join();
        CFRelease(m_runLoop);
    }
    NoticeStream(const NoticeStream&) = delete;
    NoticeStream& operator=(const NoticeStream&) = delete;

private:
    struct Observed
    {
        NoticeStream* owner = nullptr;
        RunningApp app;
        Owned<AXObserverRef> observer;
        Owned<AXUIElementRef> application;
        std::vector<Owned<CFStringRef>> registered;
        int attempts = 0;

        Observed() = default;
        Observed(const Observed&) = delete;
        Observed& operator=(const Observed&) = delete;
        ~Observed()
        {
            for (const Owned<CFStringRef>& name : registered)
                AXObserverRemoveNotification(observer.get(), application.get(), name.get());
            if (observer)
                CFRunLoopRemoveSource(CFRunLoopGetCurrent(), AXObserverGetRunLoopSource(observer.get()),
                                      kCFRunLoopDefaultMode);
        }
    };

    bool stopping()
    {
        std::lock_guard lock(m_mutex);
        return m_stopping;
    }

    void run()
    {
        {
            std::lock_guard lock(m_mutex);
            m_runLoop = static_cast<CFRunLoopRef>(const_cast<void*>(CFRetain(CFRunLoopGetCurrent())));
        }
        m_ready.notify_all();
        CFRunLoopTimerContext context{0, this, nullptr, nullptr, nullptr};
        Owned<CFRunLoopTimerRef> timer(CFRunLoopTimerCreate(kCFAllocatorDefault, CFAbsoluteTimeGetCurrent(), 2.0, 0, 0,
                                                            &NoticeStream::onTimer, &context));
        CFRunLoopAddTimer(CFRunLoopGetCurrent(), timer.get(), kCFRunLoopDefaultMode);
        while (!stopping()) {
            @autoreleasepool {
                CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0.1, false);
            }
        }
        CFRunLoopTimerInvalidate(timer.get());
        m_observed.clear();
    }

    static void onTimer(CFRunLoopTimerRef, void* info) { static_cast<NoticeStream*>(info)->syncApps(); }

    // Observes the regular apps that run and forgets the ones that quit; AXValueChanged only of
    // the frontmost one (NoticeGate).
    void syncApps()
    {
        const pid_t own = getpid();
        std::map<qint64, RunningApp> running;
        qint64 frontmost = 0;
        for (const RunningApp& app : runningApps()) {
            if (app.pid != own && app.regular)
                running[app.pid] = app;
            if (app.active)
                frontmost = app.pid;
        }
        for (auto it = m_observed.begin(); it != m_observed.end();)
            it = running.count(it->first) ? std::next(it) : m_observed.erase(it);
        for (const auto& [pid, app] : running) {
            auto it = m_observed.find(pid);
            if (it == m_observed.end()) {
                auto observed = std::make_unique<Observed>();
                observed->owner = this;
                observed->app = app;
                if (AXObserverCreate(static_cast<pid_t>(pid), &NoticeStream::onNotification,
                                     observed->observer.out()) != kAXErrorSuccess)
                    continue;
                observed->application = Owned<AXUIElementRef>(AXUIElementCreateApplication(static_cast<pid_t>(pid)));
                AXUIElementSetMessagingTimeout(observed->application.get(), kStreamMessagingTimeout);
                CFRunLoopAddSource(CFRunLoopGetCurrent(), AXObserverGetRunLoopSource(observed->observer.get()),
                                   kCFRunLoopDefaultMode);
                it = m_observed.emplace(pid, std::move(observed)).first;
            }
            Observed& observed = *it->second;
            // Values only of the app in front: the others' clocks and progress bars would keep
            // the stream, and them, busy reading.
            const bool wantsValues = NoticeGate::wantsValueChanges(pid, frontmost);
            const auto values = std::find_if(observed.registered.begin(), observed.registered.end(),
                                             [](const Owned<CFStringRef>& registered) {
                                                 return CFEqual(registered.get(), kAXValueChangedNotification);
                                             });
            if (!wantsValues && values != observed.registered.end()) {
                AXObserverRemoveNotification(observed.observer.get(), observed.application.get(),
                                             kAXValueChangedNotification);
                observed.registered.erase(values);
            } else if (wantsValues && values == observed.registered.end() &&
                       AXObserverAddNotification(observed.observer.get(), observed.application.get(),
                                                 kAXValueChangedNotification, &observed) == kAXErrorSuccess) {
                observed.registered.emplace_back(static_cast<CFStringRef>(CFRetain(kAXValueChangedNotification)));
            }
            // What an app still launching refused is asked for again at the next syncs (a few: an
            // app that never answers must not stall the stream every time).
            const size_t wanted = wantsValues ? kStreamNotifications : kStreamNotifications - 1;
            if (observed.registered.size() >= wanted || observed.attempts >= kStreamRegisterAttempts)
                continue;
            ++observed.attempts;
            for (CFStringRef name : {kAXFocusedUIElementChangedNotification, kAXTitleChangedNotification,
                                     kAXCreatedNotification, kAXRowCountChangedNotification}) {
                const bool has = std::any_of(
                    observed.registered.begin(), observed.registered.end(),
                    [name](const Owned<CFStringRef>& registered) { return CFEqual(registered.get(), name); });
                if (!has && AXObserverAddNotification(observed.observer.get(), observed.application.get(), name,
                                                      &observed) == kAXErrorSuccess)
                    observed.registered.emplace_back(static_cast<CFStringRef>(CFRetain(name)));
            }
        }
    }

    // Role, subrole, title (else description) and parent of one element; false when it did not answer.
    static bool readKnown(AXUIElementRef element, AxKnown* known, Owned<AXUIElementRef>* parent)
    {
        AXUIElementSetMessagingTimeout(element, kStreamMessagingTimeout);
        const void* names[] = {kAXRoleAttribute, kAXSubroleAttribute, kAXTitleAttribute, kAXDescriptionAttribute,
                               kAXParentAttribute};
        Owned<CFArrayRef> attributes(CFArrayCreate(kCFAllocatorDefault, names, 5, &kCFTypeArrayCallBacks));
        Owned<CFArrayRef> values;
        if (AXUIElementCopyMultipleAttributeValues(element, attributes.get(), 0, values.out()) != kAXErrorSuccess ||
            !values || CFArrayGetCount(values.get()) != 5)
            return false;
        known->role = stringAttribute(CFArrayGetValueAtIndex(values.get(), 0));
        known->subrole = stringAttribute(CFArrayGetValueAtIndex(values.get(), 1));
        known->title = stringAttribute(CFArrayGetValueAtIndex(values.get(), 2));
        if (known->title.isEmpty())
            known->title = stringAttribute(CFArrayGetValueAtIndex(values.get(), 3));
        if (parent) {
            CFTypeRef up = CFArrayGetValueAtIndex(values.get(), 4);
            *parent = up && CFGetTypeID(up) == AXUIElementGetTypeID()
                          ? Owned<AXUIElementRef>(static_cast<AXUIElementRef>(CFRetain(up)))
                          : Owned<AXUIElementRef>();
        }
        return true;
    }

    static void onNotification(AXObserverRef, AXUIElementRef element, CFStringRef notification, void* refcon)
    {
        auto* observed = static_cast<Observed*>(refcon);
        if (!observed || !element)
            return;
        @autoreleasepool {
            const CFAbsoluteTime started = CFAbsoluteTimeGetCurrent();
            AxNotice notice;
            notice.pid = observed->app.pid;
            notice.notification = toQString(notification);
            notice.elementKey = QString::number(notice.pid) + QLatin1Char(':') + QString::number(CFHash(element), 16);
            // Before any read: a repeat of the same element's notice, or one over the app's rate,
            // costs the app nothing.
            if (!observed->owner->m_gate.admit(notice.pid, notice.elementKey, notice.notification,
                                               static_cast<qint64>(started * 1000.0)))
                return;
            notice.appName = observed->app.name;
            notice.executable = QFileInfo(observed->app.executable).fileName();
            Owned<AXUIElementRef> parent;
            readKnown(element, &notice.element, &parent);
            if (CFStringCompare(notification, kAXRowCountChangedNotification, 0) == kCFCompareEqualTo) {
                CFIndex rows = 0;
                if (AXUIElementGetAttributeValueCount(element, kAXRowsAttribute, &rows) == kAXErrorSuccess)
                    notice.rowCount = rows;
            }
            Owned<CFTypeRef> window;
            if (AXUIElementCopyAttributeValue(element, kAXWindowAttribute, window.out()) == kAXErrorSuccess && window &&
                CFGetTypeID(window.get()) == AXUIElementGetTypeID()) {
                AxKnown known;
                if (readKnown(static_cast<AXUIElementRef>(window.get()), &known, nullptr))
                    notice.windowTitle = known.title;
            }
            for (int depth = 0;
                 parent && depth < kStreamMaxAncestors && CFAbsoluteTimeGetCurrent() - started < kStreamNoticeBudget;
                 ++depth) {
                AxKnown known;
                Owned<AXUIElementRef> above;
                if (!readKnown(parent.get(), &known, &above))
                    break;
                notice.ancestors.append(known);
                parent = std::move(above);
            }
            if (notice.element.role == QLatin1String("AXWindow"))
                notice.windowTitle = notice.element.title;
            observed->owner->m_sink(notice);
        }
    }

    AxApi::NoticeSink m_sink;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    CFRunLoopRef m_runLoop = nullptr;
    bool m_stopping = false;
    std::map<qint64, std::unique_ptr<Observed>> m_observed; ///< on the stream's thread only
    NoticeGate m_gate;                                      ///< on the stream's thread only
};

} // namespace Automation::Mac::AppleInternal
