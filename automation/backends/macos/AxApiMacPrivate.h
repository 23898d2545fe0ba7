// AxApiMac's state (AxApiMac::Private), shared by AxApiMac.mm and AxApiMacInput.mm. Objective-C++.
#pragma once

#include "automation/backends/macos/AxApiMac.h"
#include "automation/backends/macos/AxApiMacStream.h"

namespace Automation::Mac::AppleInternal {

/// Runs `work` on the main thread and waits up to a second for it; runs it at once on the main
/// thread. Text Input Sources must be called there (TextInputSources.h). `work` shares nothing
/// with the caller's stack: on a timeout it may still run later. false on a timeout (the main
/// run loop is busy or not running).
inline bool runOnMainThread(std::function<void()> work)
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

inline void inputSourceChanged(CFNotificationCenterRef, void* observer, CFNotificationName, const void*,
                               CFDictionaryRef)
{
    auto* layout = static_cast<LayoutKeys*>(observer);
    std::lock_guard<std::mutex> lock(layout->mutex);
    layout->valid = false;
}

} // namespace Automation::Mac::AppleInternal

namespace Automation::Mac {

using namespace AppleInternal;

/// kCGEventSourceUserData of every event the host posts ("mdh" + 1).
inline constexpr int64_t kHostEventMarker = 0x6d646801;

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

} // namespace Automation::Mac
