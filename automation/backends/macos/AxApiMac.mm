// AxApi on Apple's APIs (docs/macos.md has the table of each call and its Apple counterpart).
// Compiled with -fobjc-arc: Objective-C objects are ARC's; every Core Foundation object this file
// creates or copies (Create/Copy rule) is held by Owned<> or released where it is handed over.
#include "automation/backends/macos/AxApiMac.h"

#include "automation/backends/macos/NoticeGate.h"

#include <QFileInfo>
#include <QHash>
#include <QThread>

#include <Availability.h>

#import <AppKit/AppKit.h>
#import <ApplicationServices/ApplicationServices.h>
#import <Carbon/Carbon.h>
#import <CoreGraphics/CoreGraphics.h>
#if __MAC_OS_X_VERSION_MAX_ALLOWED >= 140000
#import <ScreenCaptureKit/ScreenCaptureKit.h>
#endif

#include <dispatch/dispatch.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#if !__has_feature(objc_arc)
#error "AxApiMac.mm is compiled with -fobjc-arc (automation/CMakeLists.txt, scripts/check-macos)"
#endif

namespace Automation::Mac {

namespace {

// Notifications delivered by one pumpNotifications at most, so an app that floods them cannot
// hold the worker; the rest wait for the next pump.
constexpr int kMaxNotificationsPerPump = 1000;
// CGEventKeyboardSetUnicodeString carries at most this many UTF-16 units in one event.
constexpr qsizetype kMaxUnitsPerKeyEvent = 20;
// Interned elements are swept of dead entries after this many new wraps.
constexpr int kSweepEvery = 1024;

// The run-loop mode of the observers' sources: only pumpNotifications runs the worker's run loop
// in it, so a notification never arrives in the middle of other work (Qt's event dispatcher
// runs the default mode).
CFStringRef notificationMode()
{
    return CFSTR("com.msgcode.desktop.host.ax-notifications");
}

/// One +1 reference to a Core Foundation object (from a Create or Copy function), released
/// when this goes.
template <typename Ref> class Owned
{
public:
    Owned() = default;
    explicit Owned(Ref ref) : m_ref(ref) {}
    ~Owned() { reset(); }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    Owned(Owned&& other) noexcept : m_ref(std::exchange(other.m_ref, nullptr)) {}
    Owned& operator=(Owned&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_ref = std::exchange(other.m_ref, nullptr);
        }
        return *this;
    }

    Ref get() const { return m_ref; }
    explicit operator bool() const { return m_ref != nullptr; }
    /// For a Copy function's out-parameter: releases what is held first.
    Ref* out()
    {
        reset();
        return &m_ref;
    }
    /// Hands the reference over to the caller, who releases it.
    Ref release() { return std::exchange(m_ref, nullptr); }
    void reset()
    {
        if (m_ref)
            CFRelease(m_ref);
        m_ref = nullptr;
    }

private:
    Ref m_ref = nullptr;
};

AxError toAxError(AXError error)
{
    switch (error) {
    case kAXErrorSuccess:
    case kAXErrorNotificationAlreadyRegistered: // what was asked for holds
        return AxError::Success;
    case kAXErrorFailure:
    case kAXErrorNotImplemented: // the app does not implement accessibility
    case kAXErrorNotificationNotRegistered:
    case kAXErrorNotEnoughPrecision:
        return AxError::Failure;
    case kAXErrorIllegalArgument:
    case kAXErrorInvalidUIElementObserver:
        return AxError::IllegalArgument;
    case kAXErrorInvalidUIElement:
        return AxError::InvalidElement;
    case kAXErrorCannotComplete:
        return AxError::CannotComplete;
    case kAXErrorAttributeUnsupported:
    case kAXErrorParameterizedAttributeUnsupported:
        return AxError::AttributeUnsupported;
    case kAXErrorActionUnsupported:
        return AxError::ActionUnsupported;
    case kAXErrorNotificationUnsupported:
        return AxError::NotificationUnsupported;
    case kAXErrorAPIDisabled:
        return AxError::ApiDisabled;
    case kAXErrorNoValue:
        return AxError::NoValue;
    }
    return AxError::Failure;
}

QString toQString(CFStringRef string)
{
    return string ? QString::fromCFString(string) : QString();
}

QRectF toQRect(CGRect rect)
{
    return QRectF(rect.origin.x, rect.origin.y, rect.size.width, rect.size.height);
}

/// The AXUIElementRef an AxElement holds; null when it holds none (or something else).
AXUIElementRef elementRef(const AxElement& element)
{
    const void* object = element.object();
    if (!object || CFGetTypeID(object) != AXUIElementGetTypeID())
        return nullptr;
    return static_cast<AXUIElementRef>(object);
}

double realIn(CFDictionaryRef dictionary, CFStringRef key, double otherwise)
{
    const auto number = static_cast<CFNumberRef>(CFDictionaryGetValue(dictionary, key));
    double value = otherwise;
    if (number && CFGetTypeID(number) == CFNumberGetTypeID())
        CFNumberGetValue(number, kCFNumberDoubleType, &value);
    return value;
}

qint64 integerIn(CFDictionaryRef dictionary, CFStringRef key)
{
    const auto number = static_cast<CFNumberRef>(CFDictionaryGetValue(dictionary, key));
    SInt64 value = 0;
    if (number && CFGetTypeID(number) == CFNumberGetTypeID())
        CFNumberGetValue(number, kCFNumberSInt64Type, &value);
    return value;
}

/// Core Foundation's value for an attribute; null when `value` has no Core Foundation form.
Owned<CFTypeRef> toCFValue(const AxValue& value)
{
    switch (value.type) {
    case AxValue::Type::None:
        return {};
    case AxValue::Type::Bool:
        return Owned<CFTypeRef>(CFRetain(value.boolean ? kCFBooleanTrue : kCFBooleanFalse));
    case AxValue::Type::Number: {
        const double number = value.number;
        return Owned<CFTypeRef>(CFNumberCreate(kCFAllocatorDefault, kCFNumberDoubleType, &number));
    }
    case AxValue::Type::String:
        return Owned<CFTypeRef>(value.string.toCFString());
    case AxValue::Type::Point: {
        const CGPoint point = CGPointMake(value.point.x(), value.point.y());
        return Owned<CFTypeRef>(AXValueCreate(kAXValueTypeCGPoint, &point));
    }
    case AxValue::Type::Size: {
        const CGSize size = CGSizeMake(value.size.width(), value.size.height());
        return Owned<CFTypeRef>(AXValueCreate(kAXValueTypeCGSize, &size));
    }
    case AxValue::Type::Rect: {
        const CGRect rect = CGRectMake(value.rect.x(), value.rect.y(), value.rect.width(), value.rect.height());
        return Owned<CFTypeRef>(AXValueCreate(kAXValueTypeCGRect, &rect));
    }
    case AxValue::Type::Range: {
        const CFRange range = CFRangeMake(value.rangeLocation, value.rangeLength);
        return Owned<CFTypeRef>(AXValueCreate(kAXValueTypeCFRange, &range));
    }
    case AxValue::Type::Element: {
        AXUIElementRef ref = elementRef(value.element);
        return ref ? Owned<CFTypeRef>(CFRetain(ref)) : Owned<CFTypeRef>();
    }
    case AxValue::Type::Elements: {
        std::vector<const void*> refs;
        refs.reserve(static_cast<size_t>(value.elements.size()));
        for (const AxElement& element : value.elements) {
            AXUIElementRef ref = elementRef(element);
            if (!ref)
                return {};
            refs.push_back(ref);
        }
        return Owned<CFTypeRef>(
            CFArrayCreate(kCFAllocatorDefault, refs.data(), static_cast<CFIndex>(refs.size()), &kCFTypeArrayCallBacks));
    }
    }
    return {};
}

/// `image` drawn into a QImage (RGB32, sRGB), without Qt's private Core Graphics helpers.
std::optional<QImage> toQImage(CGImageRef image)
{
    const size_t width = CGImageGetWidth(image);
    const size_t height = CGImageGetHeight(image);
    if (width == 0 || height == 0)
        return std::nullopt;
    QImage out(static_cast<int>(width), static_cast<int>(height), QImage::Format_ARGB32_Premultiplied);
    if (out.isNull())
        return std::nullopt;
    out.fill(0);
    {
        Owned<CGColorSpaceRef> space(CGColorSpaceCreateWithName(kCGColorSpaceSRGB));
        // 32-bit host-order ARGB, premultiplied: QImage::Format_ARGB32_Premultiplied's layout.
        const uint32_t layout =
            static_cast<uint32_t>(kCGImageAlphaPremultipliedFirst) | static_cast<uint32_t>(kCGBitmapByteOrder32Host);
        Owned<CGContextRef> context(CGBitmapContextCreate(
            out.bits(), width, height, 8, static_cast<size_t>(out.bytesPerLine()), space.get(), layout));
        if (!context)
            return std::nullopt;
        CGContextSetBlendMode(context.get(), kCGBlendModeCopy);
        CGContextDrawImage(context.get(), CGRectMake(0, 0, static_cast<CGFloat>(width), static_cast<CGFloat>(height)),
                           image);
    }
    out.convertTo(QImage::Format_RGB32);
    return out;
}

using WindowListImageFunction = CGImageRef (*)(CGRect, CGWindowListOption, CGWindowID, CGWindowImageOption);

/// CGWindowListCreateImage: deprecated by SDK 14 and unavailable to code built with SDK 15, yet
/// the only capture before macOS 14; with SDK 15 and later it is looked up at run time.
WindowListImageFunction windowListImageFunction()
{
#if __MAC_OS_X_VERSION_MAX_ALLOWED < 150000
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
    return &CGWindowListCreateImage;
#pragma clang diagnostic pop
#else
    static const auto function =
        reinterpret_cast<WindowListImageFunction>(dlsym(RTLD_DEFAULT, "CGWindowListCreateImage"));
    return function;
#endif
}

#if __MAC_OS_X_VERSION_MAX_ALLOWED >= 140000
// How long a ScreenCaptureKit capture may take before it counts as failed.
constexpr double kCaptureTimeoutSeconds = 5.0;

/// One ScreenCaptureKit capture, shared by the waiting worker and the completion handlers (which
/// may run after the worker gave up waiting).
struct CaptureWait
{
    std::mutex mutex;
    CGImageRef image = nullptr; // +1 once set
    bool abandoned = false;
    dispatch_semaphore_t done = dispatch_semaphore_create(0);

    CaptureWait() = default;
    CaptureWait(const CaptureWait&) = delete;
    CaptureWait& operator=(const CaptureWait&) = delete;
    ~CaptureWait()
    {
        if (image)
            CGImageRelease(image);
    }
};

/// A capture whose completion has not come back yet: SCK can leak or stall when it is entered
/// again under load (Peekaboo serialises it for that), so no new capture starts while one is
/// out; the caller takes CGWindowList instead.
std::atomic<bool> g_captureOut{false};

/// The display `displayId` at `pixelWidth` x `pixelHeight` through SCScreenshotManager; nullopt
/// when it failed, timed out or another capture is still out (the caller falls back).
API_AVAILABLE(macos(14.0))
std::optional<QImage> captureWithScreenCaptureKit(CGDirectDisplayID displayId, size_t pixelWidth, size_t pixelHeight)
{
    bool idle = false;
    if (!g_captureOut.compare_exchange_strong(idle, true))
        return std::nullopt;
    auto wait = std::make_shared<CaptureWait>();
    [SCShareableContent getShareableContentWithCompletionHandler:^(SCShareableContent* content, NSError* error) {
      SCDisplay* target = nil;
      for (SCDisplay* display in content.displays) {
          if (display.displayID == displayId)
              target = display;
      }
      if (error || !target) {
          g_captureOut = false;
          dispatch_semaphore_signal(wait->done);
          return;
      }
      SCContentFilter* filter = [[SCContentFilter alloc] initWithDisplay:target excludingWindows:@[]];
      SCStreamConfiguration* configuration = [[SCStreamConfiguration alloc] init];
      configuration.width = pixelWidth;
      configuration.height = pixelHeight;
      configuration.showsCursor = NO;
      [SCScreenshotManager captureImageWithFilter:filter
                                    configuration:configuration
                                completionHandler:^(CGImageRef image, NSError* captureError) {
                                  {
                                      const std::lock_guard lock(wait->mutex);
                                      if (image && !captureError && !wait->abandoned)
                                          wait->image = CGImageRetain(image);
                                  }
                                  g_captureOut = false;
                                  dispatch_semaphore_signal(wait->done);
                                }];
    }];
    const auto timeout = static_cast<int64_t>(kCaptureTimeoutSeconds * static_cast<double>(NSEC_PER_SEC));
    const bool finished = dispatch_semaphore_wait(wait->done, dispatch_time(DISPATCH_TIME_NOW, timeout)) == 0;
    const std::lock_guard lock(wait->mutex);
    if (!finished || !wait->image) {
        wait->abandoned = true;
        return std::nullopt;
    }
    return toQImage(wait->image);
}
#endif

// Seconds an app has to answer the event stream's reads of one element, and the whole budget of
// one notice's reads (its element, its window and its ancestors).
constexpr float kStreamMessagingTimeout = 0.1F;
constexpr CFAbsoluteTime kStreamNoticeBudget = 0.25;
constexpr int kStreamMaxAncestors = 24;
// The notifications the stream registers per app, and how many syncs (2 s apart) may ask again
// for the ones an app refused.
constexpr size_t kStreamNotifications = 5;
constexpr int kStreamRegisterAttempts = 5;

QString stringAttribute(CFTypeRef value)
{
    if (!value)
        return {};
    if (CFGetTypeID(value) == CFStringGetTypeID())
        return toQString(static_cast<CFStringRef>(value));
    if (CFGetTypeID(value) == CFAttributedStringGetTypeID())
        return toQString(CFAttributedStringGetString(static_cast<CFAttributedStringRef>(value)));
    return {};
}

/// Every running app NSWorkspace knows (not the terminated ones), as RunningApp.
QList<RunningApp> runningApps()
{
    QList<RunningApp> apps;
    @autoreleasepool {
        for (NSRunningApplication* app in [NSWorkspace sharedWorkspace].runningApplications) {
            if (app.terminated)
                continue;
            RunningApp out;
            out.pid = app.processIdentifier;
            out.bundleId = app.bundleIdentifier ? QString::fromNSString(app.bundleIdentifier) : QString();
            out.name = app.localizedName ? QString::fromNSString(app.localizedName) : QString();
            out.executable = app.executableURL.path ? QString::fromNSString(app.executableURL.path) : QString();
            out.active = app.active;
            out.regular = app.activationPolicy == NSApplicationActivationPolicyRegular;
            apps.append(out);
        }
    }
    return apps;
}

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

} // namespace

namespace {

/// Runs `work` on the main thread and waits up to a second for it; runs it at once on the main
/// thread. Text Input Sources must be called there (TextInputSources.h). `work` shares nothing
/// with the caller's stack: on a timeout it may still run later. false on a timeout (the main
/// run loop is busy or not running).
bool runOnMainThread(std::function<void()> work)
{
    if ([NSThread isMainThread]) {
        work();
        return true;
    }
    dispatch_semaphore_t done = dispatch_semaphore_create(0);
    auto shared = std::make_shared<std::function<void()>>(std::move(work));
    dispatch_async(dispatch_get_main_queue(), ^{
      (*shared)();
      dispatch_semaphore_signal(done);
    });
    return dispatch_semaphore_wait(done, dispatch_time(DISPATCH_TIME_NOW, NSEC_PER_SEC)) == 0;
}

/// The keys of the selected keyboard layout by the character each types without modifiers,
/// built on the main thread and kept until the selected input source changes.
struct LayoutKeys
{
    std::mutex mutex;
    bool valid = false;
    QHash<QChar, quint16> keys;
};

/// The selected keyboard layout's keys (main thread): UCKeyTranslate of every key code but the
/// keypad's over the layout's 'uchr' data. An input method without layout data (some CJK ones)
/// gives the ASCII-capable layout underneath it.
QHash<QChar, quint16> readLayoutKeys()
{
    QHash<QChar, quint16> keys;
    @autoreleasepool {
        TISInputSourceRef source = TISCopyCurrentKeyboardLayoutInputSource();
        CFDataRef data =
            source ? static_cast<CFDataRef>(TISGetInputSourceProperty(source, kTISPropertyUnicodeKeyLayoutData))
                   : nullptr;
        if (!data) {
            if (source)
                CFRelease(source);
            source = TISCopyCurrentASCIICapableKeyboardLayoutInputSource();
            data = source ? static_cast<CFDataRef>(TISGetInputSourceProperty(source, kTISPropertyUnicodeKeyLayoutData))
                          : nullptr;
        }
        if (data) {
            const auto* layout = reinterpret_cast<const UCKeyboardLayout*>(CFDataGetBytePtr(data));
            for (UInt16 code = 0; code < 0x80; ++code) {
                if (code >= 0x41 && code <= 0x5C)
                    continue; // the keypad: its digits are not what Command-1 means
                UInt32 deadKeys = 0;
                UniChar chars[4] = {};
                UniCharCount length = 0;
                const OSStatus status = UCKeyTranslate(layout, code, kUCKeyActionDown, 0, LMGetKbdType(),
                                                       kUCKeyTranslateNoDeadKeysMask, &deadKeys, 4, &length, chars);
                if (status != noErr || length != 1)
                    continue;
                const QChar character = QChar(chars[0]).toLower();
                if (!keys.contains(character))
                    keys.insert(character, code);
            }
        }
        if (source)
            CFRelease(source);
    }
    return keys;
}

void inputSourceChanged(CFNotificationCenterRef, void* observer, CFNotificationName, const void*, CFDictionaryRef)
{
    auto* layout = static_cast<LayoutKeys*>(observer);
    std::lock_guard<std::mutex> lock(layout->mutex);
    layout->valid = false;
}

/// The selected input source's ID when it is not ASCII-capable (an input method), else empty.
QString nonAsciiSourceId()
{
    QString id;
    TISInputSourceRef current = TISCopyCurrentKeyboardInputSource();
    if (!current)
        return id;
    const auto capable =
        static_cast<CFBooleanRef>(TISGetInputSourceProperty(current, kTISPropertyInputSourceIsASCIICapable));
    if (!capable || !CFBooleanGetValue(capable)) {
        const auto name = static_cast<CFStringRef>(TISGetInputSourceProperty(current, kTISPropertyInputSourceID));
        if (name)
            id = QString::fromNSString((__bridge NSString*)name);
    }
    CFRelease(current);
    return id;
}

} // namespace

/// kCGEventSourceUserData of every event the host posts ("mdh" + 1).
constexpr int64_t kHostEventMarker = 0x6d646801;

struct AxApiMac::Private
{
    /// The source of every event the host posts: its user data marks them as the host's, so an
    /// event tap (the person's input watch) tells them from the person's.
    Owned<CGEventSourceRef> source;
    CGEventSourceRef eventSource()
    {
        if (!source) {
            source = Owned<CGEventSourceRef>(CGEventSourceCreate(kCGEventSourceStateHIDSystemState));
            if (source)
                CGEventSourceSetUserData(source.get(), kHostEventMarker);
        }
        return source.get();
    }

    /// The selected layout's keys; its address is the input-source observer's (see AxApiMac()).
    std::shared_ptr<LayoutKeys> layoutKeys = std::make_shared<LayoutKeys>();

    /// A live element under its key; `object` expires when the last AxElement holding it goes.
    struct Interned
    {
        std::weak_ptr<const void> object;
        QString key;
    };
    /// "pid:hash" -> the live elements with that CFHash (CFEqual tells them apart).
    QHash<QString, QList<Interned>> interned;
    int wrapsSinceSweep = 0;

    /// pid -> the messaging timeout set on its application element (0: the global default).
    QHash<qint64, float> timeouts;

    /// One app's observer, its source on the worker's run loop and the callback.
    struct Observation
    {
        Private* owner = nullptr;
        AXObserverRef observer = nullptr;
        AXUIElementRef application = nullptr;
        CFRunLoopRef runLoop = nullptr;
        std::vector<Owned<CFStringRef>> registered;
        Notification callback;

        Observation() = default;
        Observation(const Observation&) = delete;
        Observation& operator=(const Observation&) = delete;
        ~Observation()
        {
            for (const Owned<CFStringRef>& name : registered)
                AXObserverRemoveNotification(observer, application, name.get());
            if (runLoop) {
                CFRunLoopRemoveSource(runLoop, AXObserverGetRunLoopSource(observer), notificationMode());
                CFRelease(runLoop);
            }
            if (application)
                CFRelease(application);
            if (observer)
                CFRelease(observer);
        }
    };
    std::map<qint64, std::unique_ptr<Observation>> observations;
    /// The event stream's thread and its observers (streamNotices), apart from the worker's.
    std::mutex streamMutex;
    std::unique_ptr<NoticeStream> stream;
    /// Observations ended while a pump was delivering: freed when it returns.
    std::vector<std::unique_ptr<Observation>> retired;
    bool pumping = false;

    enum class Ownership { Adopt, Borrow };

    /// The AxElement of `ref`: the key of a live element CFEqual to it, or a new key.
    /// Adopt takes over a +1 reference (Create/Copy rule); Borrow retains.
    AxElement wrap(CFTypeRef ref, Ownership ownership)
    {
        if (!ref)
            return {};
        if (ownership == Ownership::Borrow)
            CFRetain(ref);
        const auto element = static_cast<AXUIElementRef>(ref);
        pid_t pid = 0;
        AXUIElementGetPid(element, &pid);
        const CFHashCode hash = CFHash(ref);
        const QString bucketKey = QString::number(pid) + QLatin1Char(':') + QString::number(hash, 16);
        QList<Interned>& bucket = interned[bucketKey];
        for (qsizetype i = 0; i < bucket.size();) {
            std::shared_ptr<const void> live = bucket[i].object.lock();
            if (!live) {
                bucket.removeAt(i);
                continue;
            }
            if (CFEqual(live.get(), ref)) {
                CFRelease(ref);
                return AxElement(bucket[i].key, std::move(live));
            }
            ++i;
        }
        std::shared_ptr<const void> retained(ref, [](const void* object) { CFRelease(object); });
        const QString key =
            QStringLiteral("ax:") + bucketKey + QLatin1Char(':') + QString::number(reinterpret_cast<quintptr>(ref), 16);
        bucket.append(Interned{retained, key});
        if (++wrapsSinceSweep >= kSweepEvery)
            sweep();
        return AxElement(key, std::move(retained));
    }

    void sweep()
    {
        wrapsSinceSweep = 0;
        for (auto it = interned.begin(); it != interned.end();) {
            it->removeIf([](const Interned& entry) { return entry.object.expired(); });
            it = it->isEmpty() ? interned.erase(it) : std::next(it);
        }
    }

    /// The messaging timeout of `ref`'s app, set on `ref` itself before it is messaged.
    void applyTimeout(AXUIElementRef ref) const
    {
        if (timeouts.isEmpty())
            return;
        pid_t pid = 0;
        if (AXUIElementGetPid(ref, &pid) != kAXErrorSuccess)
            return;
        const auto it = timeouts.constFind(pid);
        if (it != timeouts.constEnd())
            AXUIElementSetMessagingTimeout(ref, *it);
    }

    AxValue toAxValue(CFTypeRef value)
    {
        AxValue out;
        const CFTypeID type = CFGetTypeID(value);
        if (type == CFBooleanGetTypeID()) {
            out = AxValue::ofBool(CFBooleanGetValue(static_cast<CFBooleanRef>(value)));
        } else if (type == CFNumberGetTypeID()) {
            double number = 0;
            CFNumberGetValue(static_cast<CFNumberRef>(value), kCFNumberDoubleType, &number);
            out = AxValue::ofNumber(number);
        } else if (type == CFStringGetTypeID()) {
            out = AxValue::ofString(toQString(static_cast<CFStringRef>(value)));
        } else if (type == CFAttributedStringGetTypeID()) {
            out = AxValue::ofString(toQString(CFAttributedStringGetString(static_cast<CFAttributedStringRef>(value))));
        } else if (type == CFURLGetTypeID()) {
            out = AxValue::ofString(toQString(CFURLGetString(static_cast<CFURLRef>(value))));
        } else if (type == AXUIElementGetTypeID()) {
            out = AxValue::ofElement(wrap(value, Ownership::Borrow));
        } else if (type == CFArrayGetTypeID()) {
            const auto array = static_cast<CFArrayRef>(value);
            QList<AxElement> elements;
            const CFIndex count = CFArrayGetCount(array);
            elements.reserve(count);
            for (CFIndex i = 0; i < count; ++i) {
                const void* item = CFArrayGetValueAtIndex(array, i);
                if (item && CFGetTypeID(item) == AXUIElementGetTypeID())
                    elements.append(wrap(item, Ownership::Borrow));
            }
            out = AxValue::ofElements(elements);
        } else if (type == AXValueGetTypeID()) {
            const auto axValue = static_cast<AXValueRef>(value);
            switch (AXValueGetType(axValue)) {
            case kAXValueTypeCGPoint: {
                CGPoint point{};
                AXValueGetValue(axValue, kAXValueTypeCGPoint, &point);
                out = AxValue::ofPoint(QPointF(point.x, point.y));
                break;
            }
            case kAXValueTypeCGSize: {
                CGSize size{};
                AXValueGetValue(axValue, kAXValueTypeCGSize, &size);
                out = AxValue::ofSize(QSizeF(size.width, size.height));
                break;
            }
            case kAXValueTypeCGRect: {
                CGRect rect{};
                AXValueGetValue(axValue, kAXValueTypeCGRect, &rect);
                out.type = AxValue::Type::Rect;
                out.rect = toQRect(rect);
                break;
            }
            case kAXValueTypeCFRange: {
                CFRange range{};
                AXValueGetValue(axValue, kAXValueTypeCFRange, &range);
                out.type = AxValue::Type::Range;
                out.rangeLocation = range.location;
                out.rangeLength = range.length;
                break;
            }
            case kAXValueTypeAXError:
            case kAXValueTypeIllegal:
                break;
            }
        }
        return out;
    }

    /// One attribute's entry of AXUIElementCopyMultipleAttributeValues: a value, or an AXValue
    /// carrying that attribute's error.
    AxRead toRead(CFTypeRef value)
    {
        if (!value || CFGetTypeID(value) == CFNullGetTypeID())
            return AxRead{AxError::NoValue, {}};
        if (CFGetTypeID(value) == AXValueGetTypeID() &&
            AXValueGetType(static_cast<AXValueRef>(value)) == kAXValueTypeAXError) {
            AXError error = kAXErrorFailure;
            AXValueGetValue(static_cast<AXValueRef>(value), kAXValueTypeAXError, &error);
            return AxRead{toAxError(error), {}};
        }
        return AxRead{AxError::Success, toAxValue(value)};
    }

    static void observerCallback(AXObserverRef, AXUIElementRef element, CFStringRef notification, void* refcon)
    {
        auto* observation = static_cast<Observation*>(refcon);
        if (!observation || !observation->callback)
            return;
        const AxElement wrapped = observation->owner->wrap(element, Ownership::Borrow);
        // A copy: the callback may end this observation (unobserve) while it runs.
        const Notification callback = observation->callback;
        callback(wrapped, toQString(notification));
    }
};

AxApiMac::AxApiMac() : d(std::make_unique<Private>())
{
    // The layout's keys are read again after the person selects another input source.
    std::shared_ptr<LayoutKeys> layout = d->layoutKeys;
    runOnMainThread([layout] {
        CFNotificationCenterAddObserver(CFNotificationCenterGetDistributedCenter(), layout.get(), inputSourceChanged,
                                        kTISNotifySelectedKeyboardInputSourceChanged, nullptr,
                                        CFNotificationSuspensionBehaviorDeliverImmediately);
    });
}

AxApiMac::~AxApiMac()
{
    std::shared_ptr<LayoutKeys> layout = d->layoutKeys;
    runOnMainThread([layout] {
        CFNotificationCenterRemoveObserver(CFNotificationCenterGetDistributedCenter(), layout.get(),
                                           kTISNotifySelectedKeyboardInputSourceChanged, nullptr);
    });
    streamNotices({});
    d->observations.clear();
    d->retired.clear();
}

bool AxApiMac::isProcessTrusted(bool prompt)
{
    @autoreleasepool {
        NSDictionary* options = @{(__bridge NSString*)kAXTrustedCheckOptionPrompt : @(prompt)};
        return AXIsProcessTrustedWithOptions((__bridge CFDictionaryRef)options);
    }
}

bool AxApiMac::screenCaptureAllowed()
{
    @autoreleasepool {
        return CGPreflightScreenCaptureAccess();
    }
}

bool AxApiMac::requestScreenCaptureAccess()
{
    @autoreleasepool {
        return CGRequestScreenCaptureAccess();
    }
}

QList<RunningApp> AxApiMac::runningApplications()
{
    @autoreleasepool {
        return runningApps();
    }
}

QList<ServerWindow> AxApiMac::windowList()
{
    @autoreleasepool {
        // The window server lists on-screen windows front to back; the others (minimized, on another
        // Space, hidden) follow them.
        QList<ServerWindow> onScreen;
        QList<ServerWindow> offScreen;
        Owned<CFArrayRef> list(
            CGWindowListCopyWindowInfo(kCGWindowListOptionAll | kCGWindowListExcludeDesktopElements, kCGNullWindowID));
        if (!list)
            return {};
        const CFIndex count = CFArrayGetCount(list.get());
        for (CFIndex i = 0; i < count; ++i) {
            const auto info = static_cast<CFDictionaryRef>(CFArrayGetValueAtIndex(list.get(), i));
            if (!info || CFGetTypeID(info) != CFDictionaryGetTypeID())
                continue;
            ServerWindow window;
            window.number = static_cast<quint32>(integerIn(info, kCGWindowNumber));
            window.pid = integerIn(info, kCGWindowOwnerPID);
            window.layer = static_cast<int>(integerIn(info, kCGWindowLayer));
            window.alpha = realIn(info, kCGWindowAlpha, 1.0);
            const auto name = static_cast<CFStringRef>(CFDictionaryGetValue(info, kCGWindowName));
            if (name && CFGetTypeID(name) == CFStringGetTypeID())
                window.title = toQString(name);
            const auto bounds = static_cast<CFDictionaryRef>(CFDictionaryGetValue(info, kCGWindowBounds));
            CGRect rect = CGRectZero;
            if (bounds && CGRectMakeWithDictionaryRepresentation(bounds, &rect))
                window.bounds = toQRect(rect);
            const auto visible = static_cast<CFBooleanRef>(CFDictionaryGetValue(info, kCGWindowIsOnscreen));
            window.onScreen = visible && CFGetTypeID(visible) == CFBooleanGetTypeID() && CFBooleanGetValue(visible);
            (window.onScreen ? onScreen : offScreen).append(window);
        }
        return onScreen + offScreen;
    }
}

QList<Display> AxApiMac::displays()
{
    @autoreleasepool {
        // CoreGraphics only: it is thread-safe, while AppKit rebuilds its NSScreen array on the main
        // thread at display changes without a lock (this runs on the worker). The main display (the
        // one with the menu bar) first; frames in the global top-left points that AX and CGEvent use;
        // the scale from the current mode's pixels per point.
        QList<Display> out;
        uint32_t count = 0;
        if (CGGetActiveDisplayList(0, nullptr, &count) != kCGErrorSuccess || count == 0)
            return out;
        std::vector<CGDirectDisplayID> ids(count);
        if (CGGetActiveDisplayList(count, ids.data(), &count) != kCGErrorSuccess)
            return out;
        ids.resize(count);
        const CGDirectDisplayID main = CGMainDisplayID();
        std::stable_partition(ids.begin(), ids.end(), [main](CGDirectDisplayID id) { return id == main; });
        for (const CGDirectDisplayID id : ids) {
            Display display;
            display.frame = toQRect(CGDisplayBounds(id));
            if (const Owned<CGDisplayModeRef> mode{CGDisplayCopyDisplayMode(id)}) {
                const size_t points = CGDisplayModeGetWidth(mode.get());
                const size_t pixels = CGDisplayModeGetPixelWidth(mode.get());
                if (points > 0 && pixels > 0)
                    display.scale = static_cast<double>(pixels) / static_cast<double>(points);
            }
            out.append(display);
        }
        return out;
    }
}

// NSApplicationActivateIgnoringOtherApps is deprecated by macOS 14, which activates cooperatively
// (docs/macos.md); before 14 it is the only way for a background app to bring another one forward.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
bool AxApiMac::activateApplication(qint64 pid)
{
    @autoreleasepool {
        NSRunningApplication* app =
            [NSRunningApplication runningApplicationWithProcessIdentifier:static_cast<pid_t>(pid)];
        if (!app || app.terminated)
            return false;
        return [app activateWithOptions:NSApplicationActivateIgnoringOtherApps];
    }
}
#pragma clang diagnostic pop

AxElement AxApiMac::applicationElement(qint64 pid)
{
    @autoreleasepool {
        if (pid <= 0)
            return {};
        return d->wrap(AXUIElementCreateApplication(static_cast<pid_t>(pid)), Private::Ownership::Adopt);
    }
}

AxError AxApiMac::setMessagingTimeout(const AxElement& element, double seconds)
{
    @autoreleasepool {
        AXUIElementRef ref = elementRef(element);
        if (!ref || seconds < 0)
            return AxError::IllegalArgument;
        const auto timeout = static_cast<float>(seconds);
        const AXError error = AXUIElementSetMessagingTimeout(ref, timeout);
        pid_t pid = 0;
        if (error == kAXErrorSuccess && AXUIElementGetPid(ref, &pid) == kAXErrorSuccess)
            d->timeouts.insert(pid, timeout);
        return toAxError(error);
    }
}

QList<AxRead> AxApiMac::copyAttributes(const AxElement& element, const QStringList& attributes)
{
    @autoreleasepool {
        QList<AxRead> reads(attributes.size());
        AXUIElementRef ref = elementRef(element);
        if (!ref) {
            for (AxRead& read : reads)
                read.error = AxError::IllegalArgument;
            return reads;
        }
        if (attributes.isEmpty())
            return reads;
        @autoreleasepool {
            Owned<CFMutableArrayRef> names(
                CFArrayCreateMutable(kCFAllocatorDefault, attributes.size(), &kCFTypeArrayCallBacks));
            for (const QString& attribute : attributes) {
                const Owned<CFStringRef> name(attribute.toCFString());
                CFArrayAppendValue(names.get(), name.get());
            }
            d->applyTimeout(ref);
            Owned<CFArrayRef> values;
            // Options 0: an attribute's own error comes back in its place as an AXValue.
            const AXError error = AXUIElementCopyMultipleAttributeValues(ref, names.get(), 0, values.out());
            if (error != kAXErrorSuccess || !values) {
                const AxError whole = error == kAXErrorSuccess ? AxError::Failure : toAxError(error);
                for (AxRead& read : reads)
                    read.error = whole;
                return reads;
            }
            const CFIndex count = CFArrayGetCount(values.get());
            for (qsizetype i = 0; i < reads.size(); ++i) {
                if (i >= count) {
                    reads[i].error = AxError::Failure;
                    continue;
                }
                reads[i] = d->toRead(CFArrayGetValueAtIndex(values.get(), static_cast<CFIndex>(i)));
            }
        }
        return reads;
    }
}

AxError AxApiMac::setAttribute(const AxElement& element, const QString& attribute, const AxValue& value)
{
    @autoreleasepool {
        AXUIElementRef ref = elementRef(element);
        const Owned<CFTypeRef> cfValue = toCFValue(value);
        if (!ref || !cfValue)
            return AxError::IllegalArgument;
        const Owned<CFStringRef> name(attribute.toCFString());
        d->applyTimeout(ref);
        return toAxError(AXUIElementSetAttributeValue(ref, name.get(), cfValue.get()));
    }
}

AxError AxApiMac::attributeCount(const AxElement& element, const QString& attribute, qint64* count)
{
    @autoreleasepool {
        *count = 0;
        AXUIElementRef ref = elementRef(element);
        if (!ref)
            return AxError::IllegalArgument;
        d->applyTimeout(ref);
        const Owned<CFStringRef> name(attribute.toCFString());
        CFIndex values = 0;
        const AXError error = AXUIElementGetAttributeValueCount(ref, name.get(), &values);
        if (error == kAXErrorSuccess)
            *count = values;
        return toAxError(error);
    }
}

AxError AxApiMac::attributeValues(const AxElement& element, const QString& attribute, qint64 index, qint64 max,
                                  QList<AxElement>* out)
{
    @autoreleasepool {
        out->clear();
        AXUIElementRef ref = elementRef(element);
        if (!ref || index < 0 || max < 0)
            return AxError::IllegalArgument;
        d->applyTimeout(ref);
        const Owned<CFStringRef> name(attribute.toCFString());
        Owned<CFArrayRef> values;
        const AXError error = AXUIElementCopyAttributeValues(ref, name.get(), static_cast<CFIndex>(index),
                                                             static_cast<CFIndex>(max), values.out());
        if (error != kAXErrorSuccess || !values)
            return error == kAXErrorSuccess ? AxError::Failure : toAxError(error);
        const CFIndex count = CFArrayGetCount(values.get());
        for (CFIndex i = 0; i < count; ++i) {
            const void* value = CFArrayGetValueAtIndex(values.get(), i);
            if (value && CFGetTypeID(value) == AXUIElementGetTypeID())
                out->append(d->wrap(value, Private::Ownership::Borrow));
        }
        return AxError::Success;
    }
}

AxError AxApiMac::actionNames(const AxElement& element, QStringList* names)
{
    @autoreleasepool {
        if (names)
            names->clear();
        AXUIElementRef ref = elementRef(element);
        if (!ref)
            return AxError::IllegalArgument;
        d->applyTimeout(ref);
        Owned<CFArrayRef> actions;
        const AXError error = AXUIElementCopyActionNames(ref, actions.out());
        if (error != kAXErrorSuccess || !actions || !names)
            return toAxError(error);
        const CFIndex count = CFArrayGetCount(actions.get());
        for (CFIndex i = 0; i < count; ++i) {
            const void* action = CFArrayGetValueAtIndex(actions.get(), i);
            if (action && CFGetTypeID(action) == CFStringGetTypeID())
                names->append(toQString(static_cast<CFStringRef>(action)));
        }
        return AxError::Success;
    }
}

AxError AxApiMac::performAction(const AxElement& element, const QString& action)
{
    @autoreleasepool {
        AXUIElementRef ref = elementRef(element);
        if (!ref)
            return AxError::IllegalArgument;
        const Owned<CFStringRef> name(action.toCFString());
        d->applyTimeout(ref);
        return toAxError(AXUIElementPerformAction(ref, name.get()));
    }
}

AxError AxApiMac::elementAtPosition(const AxElement& application, QPointF point, AxElement* out)
{
    @autoreleasepool {
        if (out)
            *out = AxElement();
        AXUIElementRef ref = elementRef(application);
        if (!ref)
            return AxError::IllegalArgument;
        d->applyTimeout(ref);
        AXUIElementRef found = nullptr;
        const AXError error =
            AXUIElementCopyElementAtPosition(ref, static_cast<float>(point.x()), static_cast<float>(point.y()), &found);
        if (error != kAXErrorSuccess || !found) {
            if (found)
                CFRelease(found);
            return error == kAXErrorSuccess ? AxError::NoValue : toAxError(error);
        }
        AxElement element = d->wrap(found, Private::Ownership::Adopt);
        if (out)
            *out = std::move(element);
        return AxError::Success;
    }
}

qint64 AxApiMac::pidOf(const AxElement& element)
{
    @autoreleasepool {
        AXUIElementRef ref = elementRef(element);
        pid_t pid = 0;
        if (!ref || AXUIElementGetPid(ref, &pid) != kAXErrorSuccess)
            return 0;
        return pid;
    }
}

AxError AxApiMac::observe(qint64 pid, const QStringList& notifications, Notification callback)
{
    @autoreleasepool {
        unobserve(pid);
        if (pid <= 0)
            return AxError::IllegalArgument;
        auto observation = std::make_unique<Private::Observation>();
        observation->owner = d.get();
        observation->callback = std::move(callback);
        AXError error = AXObserverCreate(static_cast<pid_t>(pid), &Private::observerCallback, &observation->observer);
        if (error != kAXErrorSuccess)
            return toAxError(error);
        observation->application = AXUIElementCreateApplication(static_cast<pid_t>(pid));
        d->applyTimeout(observation->application);
        // All or nothing: when one notification cannot be registered, none stays registered.
        for (const QString& notification : notifications) {
            Owned<CFStringRef> name(notification.toCFString());
            error = AXObserverAddNotification(observation->observer, observation->application, name.get(),
                                              observation.get());
            if (error == kAXErrorNotificationAlreadyRegistered)
                continue;
            if (error != kAXErrorSuccess)
                return toAxError(error);
            observation->registered.push_back(std::move(name));
        }
        observation->runLoop = static_cast<CFRunLoopRef>(const_cast<void*>(CFRetain(CFRunLoopGetCurrent())));
        CFRunLoopAddSource(observation->runLoop, AXObserverGetRunLoopSource(observation->observer), notificationMode());
        d->observations[pid] = std::move(observation);
        return AxError::Success;
    }
}

void AxApiMac::unobserve(qint64 pid)
{
    @autoreleasepool {
        const auto it = d->observations.find(pid);
        if (it == d->observations.end())
            return;
        if (d->pumping)
            d->retired.push_back(std::move(it->second));
        d->observations.erase(it);
    }
}

void AxApiMac::streamNotices(NoticeSink sink)
{
    @autoreleasepool {
        std::lock_guard lock(d->streamMutex);
        d->stream.reset();
        if (sink)
            d->stream = std::make_unique<NoticeStream>(std::move(sink));
    }
}

void AxApiMac::pumpNotifications(int waitMs)
{
    @autoreleasepool {
        if (d->pumping)
            return;
        d->pumping = true;
        @autoreleasepool {
            // Wait up to waitMs for the first notification, then deliver what else has arrived.
            SInt32 result = CFRunLoopRunInMode(notificationMode(), std::max(waitMs, 0) / 1000.0, true);
            for (int delivered = 1; result == kCFRunLoopRunHandledSource && delivered < kMaxNotificationsPerPump;
                 ++delivered)
                result = CFRunLoopRunInMode(notificationMode(), 0, true);
        }
        d->pumping = false;
        d->retired.clear();
    }
}

bool AxApiMac::secureEventInputEnabled()
{
    @autoreleasepool {
        return IsSecureEventInputEnabled();
    }
}

bool AxApiMac::postKey(quint16 virtualKey, bool down, quint64 flags)
{
    @autoreleasepool {
        const Owned<CGEventRef> event(
            CGEventCreateKeyboardEvent(d->eventSource(), static_cast<CGKeyCode>(virtualKey), down));
        if (!event)
            return false;
        CGEventSetFlags(event.get(), static_cast<CGEventFlags>(flags));
        CGEventPost(kCGHIDEventTap, event.get());
        return true;
    }
}

bool AxApiMac::postText(const QString& text)
{
    @autoreleasepool {
        // Key down and up carrying the text, in pieces of at most kMaxUnitsPerKeyEvent UTF-16 units,
        // never split inside a surrogate pair; no modifier flags, so held keys cannot make it a shortcut.
        const auto* units = reinterpret_cast<const UniChar*>(text.utf16());
        for (qsizetype at = 0; at < text.size();) {
            qsizetype length = std::min(kMaxUnitsPerKeyEvent, text.size() - at);
            if (at + length < text.size() && text.at(at + length - 1).isHighSurrogate())
                --length;
            for (const bool down : {true, false}) {
                const Owned<CGEventRef> event(CGEventCreateKeyboardEvent(d->eventSource(), 0, down));
                if (!event)
                    return false;
                CGEventSetFlags(event.get(), 0);
                CGEventKeyboardSetUnicodeString(event.get(), static_cast<UniCharCount>(length), units + at);
                CGEventPost(kCGHIDEventTap, event.get());
            }
            at += length;
        }
        return true;
    }
}

std::optional<quint16> AxApiMac::virtualKeyForCharacter(QChar character)
{
    @autoreleasepool {
        std::shared_ptr<LayoutKeys> layout = d->layoutKeys;
        {
            std::lock_guard<std::mutex> lock(layout->mutex);
            if (layout->valid) {
                const auto it = layout->keys.constFind(character.toLower());
                return it == layout->keys.constEnd() ? std::nullopt : std::optional<quint16>(*it);
            }
        }
        runOnMainThread([layout] {
            QHash<QChar, quint16> keys = readLayoutKeys();
            std::lock_guard<std::mutex> lock(layout->mutex);
            layout->keys = std::move(keys);
            layout->valid = !layout->keys.isEmpty();
        });
        std::lock_guard<std::mutex> lock(layout->mutex);
        const auto it = layout->keys.constFind(character.toLower());
        return it == layout->keys.constEnd() ? std::nullopt : std::optional<quint16>(*it);
    }
}

bool AxApiMac::selectAsciiInputSource(QString* previous)
{
    @autoreleasepool {
        auto result = std::make_shared<std::pair<QString, bool>>(QString(), true);
        const bool ran = runOnMainThread([result] {
            @autoreleasepool {
                result->first = nonAsciiSourceId();
                if (result->first.isEmpty())
                    return;
                TISInputSourceRef ascii = TISCopyCurrentASCIICapableKeyboardInputSource();
                result->second = ascii && TISSelectInputSource(ascii) == noErr;
                if (ascii)
                    CFRelease(ascii);
            }
        });
        if (!ran) {
            previous->clear();
            return false;
        }
        *previous = result->second ? result->first : QString();
        if (!previous->isEmpty())
            QThread::msleep(30); // the switch reaches the event system before the first key
        return result->second;
    }
}

void AxApiMac::restoreInputSource(const QString& previous)
{
    @autoreleasepool {
        if (previous.isEmpty())
            return;
        runOnMainThread([previous] {
            @autoreleasepool {
                NSDictionary* match = @{(__bridge NSString*)kTISPropertyInputSourceID : previous.toNSString()};
                CFArrayRef sources = TISCreateInputSourceList((__bridge CFDictionaryRef)match, false);
                if (!sources)
                    return;
                if (CFArrayGetCount(sources) > 0)
                    TISSelectInputSource(
                        static_cast<TISInputSourceRef>(const_cast<void*>(CFArrayGetValueAtIndex(sources, 0))));
                CFRelease(sources);
            }
        });
    }
}

bool AxApiMac::postMouse(QPointF point, MouseButton button, bool down, int clickCount)
{
    @autoreleasepool {
        CGEventType type = kCGEventNull;
        CGMouseButton cgButton = kCGMouseButtonLeft;
        switch (button) {
        case MouseButton::Left:
            type = down ? kCGEventLeftMouseDown : kCGEventLeftMouseUp;
            cgButton = kCGMouseButtonLeft;
            break;
        case MouseButton::Right:
            type = down ? kCGEventRightMouseDown : kCGEventRightMouseUp;
            cgButton = kCGMouseButtonRight;
            break;
        case MouseButton::Other:
            type = down ? kCGEventOtherMouseDown : kCGEventOtherMouseUp;
            cgButton = kCGMouseButtonCenter;
            break;
        }
        const Owned<CGEventRef> event(
            CGEventCreateMouseEvent(d->eventSource(), type, CGPointMake(point.x(), point.y()), cgButton));
        if (!event)
            return false;
        CGEventSetIntegerValueField(event.get(), kCGMouseEventClickState, std::max(clickCount, 1));
        CGEventPost(kCGHIDEventTap, event.get());
        return true;
    }
}

bool AxApiMac::moveMouse(QPointF point)
{
    @autoreleasepool {
        const Owned<CGEventRef> event(CGEventCreateMouseEvent(d->eventSource(), kCGEventMouseMoved,
                                                              CGPointMake(point.x(), point.y()), kCGMouseButtonLeft));
        if (!event)
            return false;
        CGEventPost(kCGHIDEventTap, event.get());
        return true;
    }
}

bool AxApiMac::dragMouse(QPointF point, MouseButton button)
{
    @autoreleasepool {
        CGEventType type = kCGEventLeftMouseDragged;
        CGMouseButton cgButton = kCGMouseButtonLeft;
        switch (button) {
        case MouseButton::Left:
            break;
        case MouseButton::Right:
            type = kCGEventRightMouseDragged;
            cgButton = kCGMouseButtonRight;
            break;
        case MouseButton::Other:
            type = kCGEventOtherMouseDragged;
            cgButton = kCGMouseButtonCenter;
            break;
        }
        const Owned<CGEventRef> event(
            CGEventCreateMouseEvent(d->eventSource(), type, CGPointMake(point.x(), point.y()), cgButton));
        if (!event)
            return false;
        CGEventPost(kCGHIDEventTap, event.get());
        return true;
    }
}

std::optional<QPointF> AxApiMac::mouseLocation()
{
    @autoreleasepool {
        const Owned<CGEventRef> event(CGEventCreate(nullptr));
        if (!event)
            return std::nullopt;
        const CGPoint at = CGEventGetLocation(event.get());
        return QPointF(at.x, at.y);
    }
}

qint64 AxApiMac::pasteboardChangeCount()
{
    @autoreleasepool {
        return [NSPasteboard generalPasteboard].changeCount;
    }
}

std::optional<QString> AxApiMac::pasteboardString()
{
    @autoreleasepool {
        NSString* string = [[NSPasteboard generalPasteboard] stringForType:NSPasteboardTypeString];
        if (!string)
            return std::nullopt;
        return QString::fromNSString(string);
    }
}

bool AxApiMac::setPasteboardString(const QString& text)
{
    @autoreleasepool {
        NSPasteboard* pasteboard = [NSPasteboard generalPasteboard];
        [pasteboard clearContents];
        return [pasteboard setString:text.toNSString() forType:NSPasteboardTypeString];
    }
}

std::optional<QImage> AxApiMac::captureMainDisplay(QRectF* frame)
{
    @autoreleasepool {
        const CGDirectDisplayID display = CGMainDisplayID();
        const CGRect bounds = CGDisplayBounds(display);
        if (frame)
            *frame = toQRect(bounds);
        @autoreleasepool {
#if __MAC_OS_X_VERSION_MAX_ALLOWED >= 140000
            if (@available(macOS 14, *)) {
                size_t pixelWidth = 0;
                size_t pixelHeight = 0;
                if (CGDisplayModeRef mode = CGDisplayCopyDisplayMode(display)) {
                    pixelWidth = CGDisplayModeGetPixelWidth(mode);
                    pixelHeight = CGDisplayModeGetPixelHeight(mode);
                    CGDisplayModeRelease(mode);
                }
                // ScreenCaptureKit first; when it fails, times out or is still busy with an
                // abandoned capture, the window server's image (up to at least macOS 15).
                if (pixelWidth > 0 && pixelHeight > 0)
                    if (auto captured = captureWithScreenCaptureKit(display, pixelWidth, pixelHeight))
                        return captured;
            }
#endif
            const WindowListImageFunction createImage = windowListImageFunction();
            if (!createImage)
                return std::nullopt;
            const Owned<CGImageRef> image(
                createImage(bounds, kCGWindowListOptionOnScreenOnly, kCGNullWindowID, kCGWindowImageDefault));
            if (!image)
                return std::nullopt;
            return toQImage(image.get());
        }
    }
}

} // namespace Automation::Mac
