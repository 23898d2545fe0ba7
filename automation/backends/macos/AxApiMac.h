#pragma once

#include "automation/backends/macos/AxApi.h"

#include <memory>

namespace Automation::Mac {

/// AxApi on Apple's APIs: HIServices AX, CoreGraphics (window list, events, capture), AppKit
/// (running applications, screens, the pasteboard) and ScreenCaptureKit where the SDK and the
/// system have SCScreenshotManager. The one file of the backend that calls Apple
/// (AxApiMac.mm; docs/macos.md lists each call). Apple-only: automation/CMakeLists.txt builds it
/// on Apple platforms, scripts/check-macos compiles it against a macOS SDK elsewhere.
///
/// Beyond the calls themselves it keeps three things, all on the worker thread:
/// - one AxElement (one key) per element: a ref that is CFEqual to a live one gets that one's
///   key, so equal keys mean the same element, as AxElement promises;
/// - the messaging timeout set on an application's element, applied to every element of that
///   pid before it is messaged (Apple's timeout holds only for the one AXUIElementRef it is
///   set on);
/// - the observers, whose run-loop sources sit on the worker's CFRunLoop in a private mode, so
///   notifications arrive only inside pumpNotifications.
class AxApiMac final : public AxApi
{
public:
    AxApiMac();
    ~AxApiMac() override;
    AxApiMac(const AxApiMac&) = delete;
    AxApiMac& operator=(const AxApiMac&) = delete;

    bool isProcessTrusted(bool prompt) override;
    bool screenCaptureAllowed() override;
    bool requestScreenCaptureAccess() override;

    QList<RunningApp> runningApplications() override;
    QList<ServerWindow> windowList() override;
    QList<Display> displays() override;
    bool activateApplication(qint64 pid) override;

    AxElement applicationElement(qint64 pid) override;
    AxError setMessagingTimeout(const AxElement& element, double seconds) override;
    QList<AxRead> copyAttributes(const AxElement& element, const QStringList& attributes) override;
    AxError setAttribute(const AxElement& element, const QString& attribute, const AxValue& value) override;
    AxError attributeCount(const AxElement& element, const QString& attribute, qint64* count) override;
    AxError attributeValues(const AxElement& element, const QString& attribute, qint64 index, qint64 max,
                            QList<AxElement>* out) override;
    AxError actionNames(const AxElement& element, QStringList* names) override;
    AxError performAction(const AxElement& element, const QString& action) override;
    AxError elementAtPosition(const AxElement& application, QPointF point, AxElement* out) override;
    qint64 pidOf(const AxElement& element) override;

    AxError observe(qint64 pid, const QStringList& notifications, Notification callback) override;
    void unobserve(qint64 pid) override;
    void pumpNotifications(int waitMs) override;
    void streamNotices(NoticeSink sink) override;

    bool postKey(quint16 virtualKey, bool down, quint64 flags) override;
    bool postText(const QString& text) override;
    bool postMouse(QPointF point, MouseButton button, bool down, int clickCount) override;
    bool moveMouse(QPointF point) override;
    bool dragMouse(QPointF point, MouseButton button) override;
    bool postScroll(QPointF point, int down, int right, bool pixels) override;
    std::optional<QPointF> mouseLocation() override;
    bool secureEventInputEnabled() override;

    std::optional<quint16> virtualKeyForCharacter(QChar character) override;
    bool selectAsciiInputSource(QString* previous) override;
    void restoreInputSource(const QString& previous) override;

    qint64 pasteboardChangeCount() override;
    std::optional<QString> pasteboardString() override;
    bool setPasteboardString(const QString& text) override;
    std::optional<qint64> launchApplication(const QString& bundleId, const QStringList& arguments,
                                            QString* error) override;
    bool terminateApplication(qint64 pid, bool force) override;
    QStringList pasteboardTypes() override;
    QByteArray pasteboardData(const QString& type) override;

    std::optional<QImage> captureDisplay(quint32 displayId, QRectF* frame) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace Automation::Mac
