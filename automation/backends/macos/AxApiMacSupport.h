// AxApiMac's shared pieces (AxApiMac.mm, AxApiMacInput.mm, AxApiMacStream.h): the imports,
// Owned<> for Core Foundation references, conversions, and the running apps. Objective-C++ with
// ARC; internal to the macOS backend.
#pragma once

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

namespace Automation::Mac::AppleInternal {

// Notifications delivered by one pumpNotifications at most, so an app that floods them cannot
// hold the worker; the rest wait for the next pump.
inline constexpr int kMaxNotificationsPerPump = 1000;
// CGEventKeyboardSetUnicodeString carries at most this many UTF-16 units in one event.
inline constexpr qsizetype kMaxUnitsPerKeyEvent = 20;
// Interned elements are swept of dead entries after this many new wraps.
inline constexpr int kSweepEvery = 1024;

// The run-loop mode of the observers' sources: only pumpNotifications runs the worker's run loop
// in it, so a notification never arrives in the middle of other work (Qt's event dispatcher
// runs the default mode).
inline CFStringRef notificationMode()
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

inline AxError toAxError(AXError error)
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

inline QString toQString(CFStringRef string)
{
    return string ? QString::fromCFString(string) : QString();
}

inline QRectF toQRect(CGRect rect)
{
    return QRectF(rect.origin.x, rect.origin.y, rect.size.width, rect.size.height);
}

/// The AXUIElementRef an AxElement holds; null when it holds none (or something else).
inline AXUIElementRef elementRef(const AxElement& element)
{
    const void* object = element.object();
    if (!object || CFGetTypeID(object) != AXUIElementGetTypeID())
        return nullptr;
    return static_cast<AXUIElementRef>(object);
}

inline double realIn(CFDictionaryRef dictionary, CFStringRef key, double otherwise)
{
    const auto number = static_cast<CFNumberRef>(CFDictionaryGetValue(dictionary, key));
    double value = otherwise;
    if (number && CFGetTypeID(number) == CFNumberGetTypeID())
        CFNumberGetValue(number, kCFNumberDoubleType, &value);
    return value;
}

inline qint64 integerIn(CFDictionaryRef dictionary, CFStringRef key)
{
    const auto number = static_cast<CFNumberRef>(CFDictionaryGetValue(dictionary, key));
    SInt64 value = 0;
    if (number && CFGetTypeID(number) == CFNumberGetTypeID())
        CFNumberGetValue(number, kCFNumberSInt64Type, &value);
    return value;
}

/// Core Foundation's value for an attribute; null when `value` has no Core Foundation form.
inline Owned<CFTypeRef> toCFValue(const AxValue& value)
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
inline std::optional<QImage> toQImage(CGImageRef image)
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
inline WindowListImageFunction windowListImageFunction()
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

// Seconds an app has to answer the event stream's reads of one element, and the whole budget of
// one notice's reads (its element, its window and its ancestors).
inline constexpr float kStreamMessagingTimeout = 0.1F;
inline constexpr CFAbsoluteTime kStreamNoticeBudget = 0.25;
inline constexpr int kStreamMaxAncestors = 24;
// The notifications the stream registers per app, and how many syncs (2 s apart) may ask again
// for the ones an app refused.
inline constexpr size_t kStreamNotifications = 5;
inline constexpr int kStreamRegisterAttempts = 5;

inline QString stringAttribute(CFTypeRef value)
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
inline QList<RunningApp> runningApps()
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

} // namespace Automation::Mac::AppleInternal
