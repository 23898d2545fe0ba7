// AxApiMac's input (AxApi): keys, text and mouse events from the host's marked event source, the
// keyboard layout's keys and the input sources, read on the main thread. Compiled with -fobjc-arc.
#include "automation/backends/macos/AxApiMacPrivate.h"

#if !__has_feature(objc_arc)
#error "AxApiMacInput.mm is compiled with -fobjc-arc (automation/CMakeLists.txt, scripts/check-macos)"
#endif

namespace Automation::Mac {

namespace {

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

bool AxApiMac::postScroll(QPointF point, int down, int right, bool pixels)
{
    @autoreleasepool {
        // The wheel's first axis is vertical, positive up; the second horizontal, positive left.
        const Owned<CGEventRef> event(CGEventCreateScrollWheelEvent2(
            d->eventSource(), pixels ? kCGScrollEventUnitPixel : kCGScrollEventUnitLine, 2, -down, -right, 0));
        if (!event)
            return false;
        // Delivered to the window under this point, where the pointer was moved first.
        CGEventSetLocation(event.get(), CGPointMake(point.x(), point.y()));
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

} // namespace Automation::Mac
