// AxApi on Apple's APIs (docs/macos.md has the table of each call and its Apple counterpart).
// Compiled with -fobjc-arc: Objective-C objects are ARC's; every Core Foundation object this file
// creates or copies (Create/Copy rule) is held by Owned<> or released where it is handed over.
#include "automation/backends/macos/AxApiMacPrivate.h"

#if !__has_feature(objc_arc)
#error "AxApiMac.mm is compiled with -fobjc-arc (automation/CMakeLists.txt, scripts/check-macos)"
#endif

namespace Automation::Mac {

namespace {

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

} // namespace

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
            display.id = id;
            display.builtIn = CGDisplayIsBuiltin(id) != 0;
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

std::optional<qint64> AxApiMac::launchApplication(const QString& bundleId, const QStringList& arguments, QString* error)
{
    @autoreleasepool {
        NSURL* url = [[NSWorkspace sharedWorkspace] URLForApplicationWithBundleIdentifier:bundleId.toNSString()];
        if (!url) {
            *error = QStringLiteral("no app has the bundle id %1").arg(bundleId);
            return std::nullopt;
        }
        NSWorkspaceOpenConfiguration* configuration = [NSWorkspaceOpenConfiguration configuration];
        NSMutableArray<NSString*>* args = [NSMutableArray arrayWithCapacity:static_cast<NSUInteger>(arguments.size())];
        for (const QString& argument : arguments)
            [args addObject:argument.toNSString()];
        configuration.arguments = args;
        configuration.activates = YES;
        __block qint64 pid = 0;
        __block NSString* failure = nil;
        dispatch_semaphore_t done = dispatch_semaphore_create(0);
        [[NSWorkspace sharedWorkspace] openApplicationAtURL:url
                                              configuration:configuration
                                          completionHandler:^(NSRunningApplication* app, NSError* openError) {
                                            if (app)
                                                pid = app.processIdentifier;
                                            else
                                                failure = [openError.localizedDescription copy];
                                            dispatch_semaphore_signal(done);
                                          }];
        if (dispatch_semaphore_wait(done, dispatch_time(DISPATCH_TIME_NOW, 20 * NSEC_PER_SEC)) != 0) {
            *error = QStringLiteral("LaunchServices did not answer within 20 s");
            return std::nullopt;
        }
        if (pid <= 0) {
            *error = failure ? QString::fromNSString(failure) : QStringLiteral("LaunchServices did not open the app");
            return std::nullopt;
        }
        return pid;
    }
}

bool AxApiMac::terminateApplication(qint64 pid, bool force)
{
    @autoreleasepool {
        NSRunningApplication* app =
            [NSRunningApplication runningApplicationWithProcessIdentifier:static_cast<pid_t>(pid)];
        if (!app)
            return false;
        return force ? [app forceTerminate] : [app terminate];
    }
}

QStringList AxApiMac::pasteboardTypes()
{
    @autoreleasepool {
        QStringList out;
        for (NSPasteboardType type in [[NSPasteboard generalPasteboard] types])
            out.append(QString::fromNSString(type));
        return out;
    }
}

QByteArray AxApiMac::pasteboardData(const QString& type)
{
    @autoreleasepool {
        NSData* data = [[NSPasteboard generalPasteboard] dataForType:type.toNSString()];
        if (!data)
            return {};
        return QByteArray::fromNSData(data);
    }
}

std::optional<QImage> AxApiMac::captureDisplay(quint32 displayId, QRectF* frame)
{
    @autoreleasepool {
        const CGDirectDisplayID display = displayId == 0 ? CGMainDisplayID() : displayId;
        if (!CGDisplayIsActive(display))
            return std::nullopt;
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
