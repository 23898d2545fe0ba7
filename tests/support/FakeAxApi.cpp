#include "FakeAxApi.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <limits>

namespace Testing {

using Automation::Mac::AxElement;
using Automation::Mac::AxError;
using Automation::Mac::AxRead;
using Automation::Mac::AxValue;
using Automation::Mac::KeyFlags::Command;

namespace {

QString appKey(qint64 pid)
{
    return QStringLiteral("app:") + QString::number(pid);
}

bool isTextRole(const QString& role)
{
    return role == QLatin1String("AXTextField") || role == QLatin1String("AXTextArea");
}

} // namespace

FakeAxWorld::FakeAxWorld() = default;

FakeAxWorld::~FakeAxWorld()
{
    {
        std::lock_guard lock(m_deliveryMutex);
        m_deliveryStopping = true;
    }
    m_deliveryWake.notify_all();
    if (m_delivery.joinable())
        m_delivery.join();
}

bool FakeAxWorld::trusted() const
{
    QMutexLocker lock(&m_mutex);
    return m_trusted;
}

void FakeAxWorld::setInputDelayMs(int ms)
{
    std::lock_guard lock(m_deliveryMutex);
    m_inputDelayMs = ms;
}

bool FakeAxWorld::deliver(std::function<void()> event)
{
    std::unique_lock lock(m_deliveryMutex);
    if (m_inputDelayMs <= 0 && m_queue.empty()) {
        lock.unlock();
        event();
        return true;
    }
    m_queue.emplace_back(std::chrono::steady_clock::now() + std::chrono::milliseconds(m_inputDelayMs),
                         std::move(event));
    if (!m_delivery.joinable()) {
        m_delivery = std::thread([this] {
            std::unique_lock held(m_deliveryMutex);
            while (!m_deliveryStopping) {
                if (m_queue.empty()) {
                    m_deliveryWake.wait(held);
                    continue;
                }
                const auto due = m_queue.front().first;
                if (std::chrono::steady_clock::now() < due) {
                    m_deliveryWake.wait_until(held, due);
                    continue;
                }
                std::function<void()> next = std::move(m_queue.front().second);
                m_queue.pop_front();
                held.unlock();
                next();
                held.lock();
            }
        });
    }
    m_deliveryWake.notify_all();
    return true;
}

void FakeAxWorld::setFreshReferences(bool fresh)
{
    QMutexLocker lock(&m_mutex);
    m_freshReferences = fresh;
}

bool FakeAxWorld::freshReferences() const
{
    QMutexLocker lock(&m_mutex);
    return m_freshReferences;
}

void FakeAxWorld::setLayout(Layout layout)
{
    QMutexLocker lock(&m_mutex);
    m_layout = layout;
}

namespace {

/// The character each ANSI key position types on a layout (kVK_ANSI_* codes; letters, digits
/// and the punctuation keys that move between layouts).
const QHash<quint16, QChar>& usKeys()
{
    static const QHash<quint16, QChar> keys = [] {
        QHash<quint16, QChar> k;
        const std::pair<quint16, char> table[] = {
            {0x00, 'a'},  {0x01, 's'}, {0x02, 'd'}, {0x03, 'f'}, {0x04, 'h'}, {0x05, 'g'},  {0x06, 'z'}, {0x07, 'x'},
            {0x08, 'c'},  {0x09, 'v'}, {0x0B, 'b'}, {0x0C, 'q'}, {0x0D, 'w'}, {0x0E, 'e'},  {0x0F, 'r'}, {0x10, 'y'},
            {0x11, 't'},  {0x12, '1'}, {0x13, '2'}, {0x14, '3'}, {0x15, '4'}, {0x16, '6'},  {0x17, '5'}, {0x18, '='},
            {0x19, '9'},  {0x1A, '7'}, {0x1B, '-'}, {0x1C, '8'}, {0x1D, '0'}, {0x1E, ']'},  {0x1F, 'o'}, {0x20, 'u'},
            {0x21, '['},  {0x22, 'i'}, {0x23, 'p'}, {0x25, 'l'}, {0x26, 'j'}, {0x27, '\''}, {0x28, 'k'}, {0x29, ';'},
            {0x2A, '\\'}, {0x2B, ','}, {0x2C, '/'}, {0x2D, 'n'}, {0x2E, 'm'}, {0x2F, '.'},  {0x32, '`'}};
        for (const auto& [code, c] : table)
            k.insert(code, QLatin1Char(c));
        return k;
    }();
    return keys;
}

/// What a layout types where it differs from US.
QHash<quint16, QChar> layoutDifferences(FakeAxWorld::Layout layout)
{
    QHash<quint16, QChar> d;
    const auto put = [&](std::initializer_list<std::pair<quint16, char>> list) {
        for (const auto& [code, c] : list)
            d.insert(code, QLatin1Char(c));
    };
    switch (layout) {
    case FakeAxWorld::Layout::Us:
        break;
    case FakeAxWorld::Layout::Azerty: // French: A and Q, Z and W swap; M sits right of L
        put({{0x00, 'q'}, {0x0C, 'a'}, {0x06, 'w'}, {0x0D, 'z'}, {0x29, 'm'}, {0x2E, ','}, {0x2B, ';'}});
        break;
    case FakeAxWorld::Layout::Qwertz: // German: Y and Z swap
        put({{0x06, 'y'}, {0x10, 'z'}});
        break;
    case FakeAxWorld::Layout::Dvorak:
        put({{0x0C, '\''}, {0x0D, ','}, {0x0E, '.'}, {0x0F, 'p'}, {0x11, 'y'}, {0x10, 'f'}, {0x20, 'g'},
             {0x22, 'c'},  {0x1F, 'r'}, {0x23, 'l'}, {0x21, '/'}, {0x1E, '='}, {0x00, 'a'}, {0x01, 'o'},
             {0x02, 'e'},  {0x03, 'u'}, {0x05, 'i'}, {0x04, 'd'}, {0x26, 'h'}, {0x28, 't'}, {0x25, 'n'},
             {0x29, 's'},  {0x27, '-'}, {0x06, ';'}, {0x07, 'q'}, {0x08, 'j'}, {0x09, 'k'}, {0x0B, 'x'},
             {0x2D, 'b'},  {0x2E, 'm'}, {0x2B, 'w'}, {0x2F, 'v'}, {0x2C, 'z'}, {0x1B, '['}, {0x18, ']'}});
        break;
    }
    return d;
}

} // namespace

QChar FakeAxWorld::characterOf(quint16 virtualKey) const
{
    QMutexLocker lock(&m_mutex);
    const QHash<quint16, QChar> differences = layoutDifferences(m_layout);
    if (const auto it = differences.constFind(virtualKey); it != differences.constEnd())
        return *it;
    return usKeys().value(virtualKey);
}

void FakeAxWorld::setInputMethodActive(bool active)
{
    QMutexLocker lock(&m_mutex);
    m_inputMethod = active;
}

bool FakeAxWorld::inputMethodActive() const
{
    QMutexLocker lock(&m_mutex);
    return m_inputMethod;
}

QString FakeAxWorld::composition() const
{
    QMutexLocker lock(&m_mutex);
    return m_composition;
}

void FakeAxWorld::setActivationIgnored(bool ignored)
{
    QMutexLocker lock(&m_mutex);
    m_activationIgnored = ignored;
}

void FakeAxWorld::setFullScreenButtons(bool fullScreen)
{
    QMutexLocker lock(&m_mutex);
    m_fullScreenButtons = fullScreen;
}

void FakeAxWorld::addServerWindow(const Automation::Mac::ServerWindow& window)
{
    QMutexLocker lock(&m_mutex);
    m_serverWindows.append(window);
}

void FakeAxWorld::addBackgroundApp(const QString& name, qint64 pid)
{
    QMutexLocker lock(&m_mutex);
    m_apps.insert(pid, App{name, QStringLiteral("com.apple.") + name, false, false});
}

void FakeAxWorld::setWebContentHidden(qint64 pid)
{
    QMutexLocker lock(&m_mutex);
    m_webContentHidden.insert(pid);
}

void FakeAxWorld::countHandedOut(qsizetype elements)
{
    QMutexLocker lock(&m_mutex);
    m_handedOut += elements;
}

qint64 FakeAxWorld::handedOut() const
{
    QMutexLocker lock(&m_mutex);
    return m_handedOut;
}

void FakeAxWorld::setSecureEventInput(bool on)
{
    QMutexLocker lock(&m_mutex);
    m_secureEventInput = on;
}

bool FakeAxApi::secureEventInputEnabled()
{
    QMutexLocker lock(&m_world->m_mutex);
    return m_world->m_secureEventInput;
}

bool FakeAxWorld::running(qint64 pid) const
{
    QMutexLocker lock(&m_mutex);
    return m_apps.contains(pid);
}

void FakeAxWorld::quit(qint64 pid)
{
    QMutexLocker lock(&m_mutex);
    for (const auto& w : m_elements.value(appKey(pid)).attributes.value(QStringLiteral("AXWindows")).elements)
        remove(w.key());
    m_elements.remove(appKey(pid));
    m_apps.remove(pid);
    m_observers.remove(pid);
}

qint64 FakeAxWorld::addApp(const QString& name, const QString& bundleId, qint64 pid)
{
    QMutexLocker lock(&m_mutex);
    m_apps.insert(pid, App{name, bundleId, false});
    Element app;
    app.pid = pid;
    app.attributes.insert(QStringLiteral("AXRole"), AxValue::ofString(QStringLiteral("AXApplication")));
    app.attributes.insert(QStringLiteral("AXTitle"), AxValue::ofString(name));
    app.attributes.insert(QStringLiteral("AXWindows"), AxValue::ofElements({}));
    app.attributes.insert(QStringLiteral("AXChildren"), AxValue::ofElements({}));
    m_elements.insert(appKey(pid), app);
    return pid;
}

QString FakeAxWorld::addMenuBar(qint64 pid)
{
    QMutexLocker lock(&m_mutex);
    const QString key = addElement(appKey(pid), QStringLiteral("AXMenuBar"), QString(), QRectF(0, 0, 1440, 24));
    m_elements[appKey(pid)].attributes.insert(QStringLiteral("AXMenuBar"), AxValue::ofElement(ref(key)));
    return key;
}

QString FakeAxWorld::addMenuBarItem(const QString& menuBar, const QString& title)
{
    QMutexLocker lock(&m_mutex);
    const qsizetype before = m_elements.value(menuBar).attributes.value(QStringLiteral("AXChildren")).elements.size();
    const QString item = addElement(menuBar, QStringLiteral("AXMenuBarItem"), title,
                                    QRectF(10 + 60 * static_cast<double>(before), 0, 56, 24));
    m_elements[item].actions = {QStringLiteral("AXPress"), QStringLiteral("AXCancel")};
    addElement(item, QStringLiteral("AXMenu"), QString(), QRectF());
    return item;
}

QString FakeAxWorld::addMenuItem(const QString& menuBarItem, const QString& title)
{
    QMutexLocker lock(&m_mutex);
    const QList<AxElement> menus =
        m_elements.value(menuBarItem).attributes.value(QStringLiteral("AXChildren")).elements;
    if (menus.isEmpty())
        return {};
    const QString item = addElement(menus.first().key(), QStringLiteral("AXMenuItem"), title, QRectF());
    m_elements[item].actions = {QStringLiteral("AXPress"), QStringLiteral("AXCancel")};
    return item;
}

QString FakeAxWorld::addScrollArea(const QString& parent, QRectF frame, double contentHeight)
{
    QMutexLocker lock(&m_mutex);
    const QString area = addElement(parent, QStringLiteral("AXScrollArea"), QString(), frame);
    const QString content = addElement(area, QStringLiteral("AXGroup"), QString(),
                                       QRectF(frame.x(), frame.y(), frame.width() - 15, contentHeight));
    const QString bar = addElement(area, QStringLiteral("AXScrollBar"), QString(),
                                   QRectF(frame.right() - 15, frame.y(), 15, frame.height()));
    m_elements[bar].attributes.insert(QStringLiteral("AXValue"), AxValue::ofNumber(0));
    m_elements[bar].attributes.insert(QStringLiteral("AXOrientation"),
                                      AxValue::ofString(QStringLiteral("AXVerticalOrientation")));
    m_elements[area].attributes.insert(QStringLiteral("AXVerticalScrollBar"), AxValue::ofElement(ref(bar)));
    m_elements[area].attributes.insert(QStringLiteral("AXContents"), AxValue::ofElements({ref(content)}));
    m_scrollViews.insert(area, ScrollView{content, bar, contentHeight, 0});
    return area;
}

QString FakeAxWorld::scrollContent(const QString& area) const
{
    QMutexLocker lock(&m_mutex);
    return m_scrollViews.value(area).content;
}

double FakeAxWorld::scrollOffset(const QString& area) const
{
    QMutexLocker lock(&m_mutex);
    return m_scrollViews.value(area).offset;
}

void FakeAxWorld::moveSubtree(const QString& key, QPointF by)
{
    auto it = m_elements.find(key);
    if (it == m_elements.end())
        return;
    if (it->attributes.contains(QStringLiteral("AXPosition"))) {
        const QPointF at = it->attributes.value(QStringLiteral("AXPosition")).point;
        it->attributes.insert(QStringLiteral("AXPosition"), AxValue::ofPoint(at + by));
    }
    const QList<Automation::Mac::AxElement> kids = it->attributes.value(QStringLiteral("AXChildren")).elements;
    for (const auto& kid : kids)
        moveSubtree(kid.key(), by);
}

void FakeAxWorld::setDisplayChangeAtCapture(QPointF shift, int times)
{
    QMutexLocker lock(&m_mutex);
    m_displayShift = shift;
    m_displayChangesLeft = times;
}

int FakeAxWorld::displayChanges() const
{
    QMutexLocker lock(&m_mutex);
    return m_displayChanges;
}

void FakeAxWorld::setSecondDisplay(bool attached)
{
    QMutexLocker lock(&m_mutex);
    m_secondDisplay = attached;
}

void FakeAxWorld::paintWindow(const QString& window, const QColor& colour)
{
    QMutexLocker lock(&m_mutex);
    m_windowColours.insert(window, colour);
}

void FakeAxWorld::changeDisplays()
{
    QMutexLocker lock(&m_mutex);
    if (m_displayShift.isNull() || m_displayChangesLeft == 0)
        return;
    if (m_displayChangesLeft > 0)
        --m_displayChangesLeft;
    const QPointF by = m_displayChanges % 2 == 0 ? m_displayShift : -m_displayShift;
    ++m_displayChanges;
    for (auto it = m_apps.cbegin(); it != m_apps.cend(); ++it) {
        const QList<Automation::Mac::AxElement> windows =
            m_elements.value(appKey(it.key())).attributes.value(QStringLiteral("AXWindows")).elements;
        for (const auto& window : windows)
            moveSubtree(window.key(), by);
    }
}

void FakeAxWorld::scrollTo(const QString& area, double offset)
{
    QMutexLocker lock(&m_mutex);
    auto view = m_scrollViews.find(area);
    if (view == m_scrollViews.end())
        return;
    const double room = std::max(0.0, view->contentHeight - frameOf(area).height());
    const double wanted = std::clamp(offset, 0.0, room);
    moveSubtree(view->content, QPointF(0, view->offset - wanted));
    view->offset = wanted;
    m_elements[view->bar].attributes.insert(QStringLiteral("AXValue"), AxValue::ofNumber(room > 0 ? wanted / room : 0));
}

QString FakeAxWorld::scrollAreaOf(const QString& key) const
{
    QMutexLocker lock(&m_mutex);
    for (QString at = key; m_elements.contains(at);
         at = m_elements.value(at).attributes.value(QStringLiteral("AXParent")).element.key()) {
        if (m_scrollViews.contains(at) && at != key)
            return at;
        if (m_elements.value(at).attributes.value(QStringLiteral("AXParent")).element.isNull())
            break;
    }
    return {};
}

QString FakeAxWorld::openMenu() const
{
    QMutexLocker lock(&m_mutex);
    return m_openMenu;
}

void FakeAxWorld::showMenu(const QString& menuBarItem)
{
    QMutexLocker lock(&m_mutex);
    // Every menu of every menu bar closes; then the one asked for opens under its item.
    for (Element& element : m_elements) {
        const QString role = element.attributes.value(QStringLiteral("AXRole")).string;
        if (role == QLatin1String("AXMenu") || role == QLatin1String("AXMenuItem")) {
            element.attributes.insert(QStringLiteral("AXPosition"), AxValue::ofPoint(QPointF()));
            element.attributes.insert(QStringLiteral("AXSize"), AxValue::ofSize(QSizeF()));
        }
    }
    m_openMenu = menuBarItem;
    if (menuBarItem.isEmpty())
        return;
    const QRectF bar = frameOf(menuBarItem);
    const QList<AxElement> menus =
        m_elements.value(menuBarItem).attributes.value(QStringLiteral("AXChildren")).elements;
    if (menus.isEmpty())
        return;
    const QList<AxElement> items =
        m_elements.value(menus.first().key()).attributes.value(QStringLiteral("AXChildren")).elements;
    Element& menu = m_elements[menus.first().key()];
    menu.attributes.insert(QStringLiteral("AXPosition"), AxValue::ofPoint(QPointF(bar.x(), 24)));
    menu.attributes.insert(QStringLiteral("AXSize"),
                           AxValue::ofSize(QSizeF(220, 22.0 * static_cast<double>(items.size()))));
    for (qsizetype i = 0; i < items.size(); ++i) {
        Element& item = m_elements[items.at(i).key()];
        item.attributes.insert(QStringLiteral("AXPosition"),
                               AxValue::ofPoint(QPointF(bar.x(), 24 + 22.0 * static_cast<double>(i))));
        item.attributes.insert(QStringLiteral("AXSize"), AxValue::ofSize(QSizeF(220, 22)));
    }
}

AxElement FakeAxWorld::ref(const QString& key) const
{
    return AxElement(key, std::make_shared<int>(0));
}

QString FakeAxWorld::addWindow(qint64 pid, const QString& title, QRectF frame)
{
    QMutexLocker lock(&m_mutex);
    const QString key = QStringLiteral("w%1").arg(m_next++);
    Element window;
    window.pid = pid;
    window.attributes.insert(QStringLiteral("AXRole"), AxValue::ofString(QStringLiteral("AXWindow")));
    window.attributes.insert(QStringLiteral("AXSubrole"), AxValue::ofString(QStringLiteral("AXStandardWindow")));
    window.attributes.insert(QStringLiteral("AXTitle"), AxValue::ofString(title));
    window.attributes.insert(QStringLiteral("AXPosition"), AxValue::ofPoint(frame.topLeft()));
    window.attributes.insert(QStringLiteral("AXSize"), AxValue::ofSize(frame.size()));
    window.attributes.insert(QStringLiteral("AXChildren"), AxValue::ofElements({}));
    window.attributes.insert(QStringLiteral("AXModal"), AxValue::ofBool(false));
    window.attributes.insert(QStringLiteral("AXMinimized"), AxValue::ofBool(false));
    window.actions = {QStringLiteral("AXRaise")};
    m_elements.insert(key, window);
    Element& app = m_elements[appKey(pid)];
    for (const char* list : {"AXWindows", "AXChildren"}) {
        AxValue v = app.attributes.value(QLatin1String(list));
        v.elements.prepend(ref(key));
        app.attributes.insert(QLatin1String(list), v);
    }
    app.attributes.insert(QStringLiteral("AXFocusedWindow"), AxValue::ofElement(ref(key)));
    app.attributes.insert(QStringLiteral("AXMainWindow"), AxValue::ofElement(ref(key)));
    // The title bar's close and zoom buttons, as AXCloseButton and AXZoomButton name them.
    for (const char* which : {"AXCloseButton", "AXZoomButton"}) {
        const QString button = key + QLatin1Char(':') + QLatin1String(which);
        Element b;
        b.pid = pid;
        b.attributes.insert(QStringLiteral("AXRole"), AxValue::ofString(QStringLiteral("AXButton")));
        b.attributes.insert(QStringLiteral("AXSubrole"), AxValue::ofString(QLatin1String(which)));
        b.actions = {QStringLiteral("AXPress")};
        m_elements.insert(button, b);
        m_elements[key].attributes.insert(QLatin1String(which), AxValue::ofElement(ref(button)));
    }
    m_hooks.insert(key + QStringLiteral(":AXCloseButton"), [key](FakeAxWorld& w, const QString&) { w.remove(key); });
    window.attributes.insert(QStringLiteral("AXFullScreen"), AxValue::ofBool(false));
    m_elements[key].attributes.insert(QStringLiteral("AXFullScreen"), AxValue::ofBool(false));
    if (m_fullScreenButtons) {
        // Since 10.10 the green button of a window that can go full screen: a press enters
        // full screen; the zoom is its extra action AXZoomWindow.
        Element& green = m_elements[key + QStringLiteral(":AXZoomButton")];
        green.attributes.insert(QStringLiteral("AXSubrole"), AxValue::ofString(QStringLiteral("AXFullScreenButton")));
        green.actions = {QStringLiteral("AXPress"), QStringLiteral("AXZoomWindow")};
        m_elements[key].attributes.insert(QStringLiteral("AXFullScreenButton"),
                                          AxValue::ofElement(ref(key + QStringLiteral(":AXZoomButton"))));
    }
    auto unzoomed = std::make_shared<std::optional<std::pair<QPointF, QSizeF>>>();
    m_hooks.insert(key + QStringLiteral(":AXZoomButton"), [key, unzoomed](FakeAxWorld& w, const QString& action) {
        QMutexLocker lock(&w.m_mutex);
        const bool fullScreenButton = w.m_elements.value(key + QStringLiteral(":AXZoomButton"))
                                          .attributes.value(QStringLiteral("AXSubrole"))
                                          .string == QLatin1String("AXFullScreenButton");
        if (fullScreenButton && action == QLatin1String("AXPress")) {
            if (!w.m_elements.value(key).attributes.value(QStringLiteral("AXFullScreen")).boolean)
                w.m_beforeFullScreen.insert(key, w.frameOf(key));
            w.setAttribute(key, QStringLiteral("AXFullScreen"), AxValue::ofBool(true));
            w.setAttribute(key, QStringLiteral("AXPosition"), AxValue::ofPoint(QPointF(0, 0)));
            w.setAttribute(key, QStringLiteral("AXSize"), AxValue::ofSize(QSizeF(1440, 900)));
            return;
        }
        // Zoom toggles between the display's visible frame and the window's own frame.
        const auto& attributes = w.m_elements.value(key).attributes;
        const QPointF position = attributes.value(QStringLiteral("AXPosition")).point;
        const QSizeF size = attributes.value(QStringLiteral("AXSize")).size;
        if (size == QSizeF(1440, 875) && unzoomed->has_value()) {
            w.setAttribute(key, QStringLiteral("AXPosition"), AxValue::ofPoint((*unzoomed)->first));
            w.setAttribute(key, QStringLiteral("AXSize"), AxValue::ofSize((*unzoomed)->second));
            return;
        }
        *unzoomed = std::pair{position, size};
        w.setAttribute(key, QStringLiteral("AXPosition"), AxValue::ofPoint(QPointF(0, 25)));
        w.setAttribute(key, QStringLiteral("AXSize"), AxValue::ofSize(QSizeF(1440, 875)));
    });
    return key;
}

QString FakeAxWorld::addElement(const QString& parent, const QString& role, const QString& title, QRectF frame,
                                const QString& subrole)
{
    QMutexLocker lock(&m_mutex);
    const QString key = QStringLiteral("e%1").arg(m_next++);
    Element e;
    e.pid = m_elements.value(parent).pid;
    e.attributes.insert(QStringLiteral("AXRole"), AxValue::ofString(role));
    if (!subrole.isEmpty())
        e.attributes.insert(QStringLiteral("AXSubrole"), AxValue::ofString(subrole));
    if (role == QLatin1String("AXStaticText"))
        e.attributes.insert(QStringLiteral("AXValue"), AxValue::ofString(title));
    else if (!title.isEmpty())
        e.attributes.insert(QStringLiteral("AXTitle"), AxValue::ofString(title));
    e.attributes.insert(QStringLiteral("AXPosition"), AxValue::ofPoint(frame.topLeft()));
    e.attributes.insert(QStringLiteral("AXSize"), AxValue::ofSize(frame.size()));
    e.attributes.insert(QStringLiteral("AXEnabled"), AxValue::ofBool(true));
    e.attributes.insert(QStringLiteral("AXFocused"), AxValue::ofBool(false));
    e.attributes.insert(QStringLiteral("AXChildren"), AxValue::ofElements({}));
    if (isTextRole(role)) {
        e.attributes.insert(QStringLiteral("AXValue"), AxValue::ofString(QString()));
        e.attributes.insert(QStringLiteral("AXNumberOfCharacters"), AxValue::ofNumber(0));
        e.attributes.insert(QStringLiteral("AXSelectedTextRange"), AxValue::ofRange(0, 0));
        e.actions = {QStringLiteral("AXConfirm")};
    } else if (role == QLatin1String("AXButton")) {
        e.actions = {QStringLiteral("AXPress")};
    } else if (role == QLatin1String("AXCheckBox")) {
        e.attributes.insert(QStringLiteral("AXValue"), AxValue::ofNumber(0));
        e.actions = {QStringLiteral("AXPress")};
    }
    m_elements.insert(key, e);
    Element& p = m_elements[parent];
    AxValue kids = p.attributes.value(QStringLiteral("AXChildren"));
    kids.type = AxValue::Type::Elements;
    kids.elements.append(ref(key));
    p.attributes.insert(QStringLiteral("AXChildren"), kids);
    m_elements[key].attributes.insert(QStringLiteral("AXParent"), AxValue::ofElement(ref(parent)));
    return key;
}

void FakeAxWorld::setAttribute(const QString& key, const QString& name, const AxValue& value)
{
    QMutexLocker lock(&m_mutex);
    if (m_elements.contains(key))
        m_elements[key].attributes.insert(name, value);
}

std::optional<AxValue> FakeAxWorld::attribute(const QString& key, const QString& name) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_elements.constFind(key);
    if (it == m_elements.constEnd() || !it->attributes.contains(name))
        return std::nullopt;
    return it->attributes.value(name);
}

void FakeAxWorld::setActions(const QString& key, const QStringList& actions)
{
    QMutexLocker lock(&m_mutex);
    if (m_elements.contains(key))
        m_elements[key].actions = actions;
}

void FakeAxWorld::onAction(const QString& key, std::function<void(FakeAxWorld&, const QString&)> hook)
{
    QMutexLocker lock(&m_mutex);
    m_hooks.insert(key, std::move(hook));
}

void FakeAxWorld::setFocus(const QString& key)
{
    QMutexLocker lock(&m_mutex);
    if (m_elements.contains(key))
        focus(key);
}

void FakeAxWorld::onKey(qint64 pid, KeyHook hook)
{
    QMutexLocker lock(&m_mutex);
    m_keyHooks.insert(pid, std::move(hook));
}

void FakeAxWorld::remove(const QString& key)
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_elements.constFind(key);
    if (it == m_elements.constEnd())
        return;
    const QList<AxElement> kids = it->attributes.value(QStringLiteral("AXChildren")).elements;
    m_elements.remove(key);
    for (const auto& kid : kids)
        remove(kid.key());
    for (auto& e : m_elements) {
        for (const char* list : {"AXChildren", "AXWindows"}) {
            auto found = e.attributes.find(QLatin1String(list));
            if (found != e.attributes.end())
                found->elements.removeIf([&](const AxElement& x) { return x.key() == key; });
        }
    }
}

void FakeAxWorld::activate(qint64 pid)
{
    QMutexLocker lock(&m_mutex);
    for (auto it = m_apps.begin(); it != m_apps.end(); ++it)
        it->active = it.key() == pid;
}

qint64 FakeAxWorld::frontmost() const
{
    QMutexLocker lock(&m_mutex);
    for (auto it = m_apps.cbegin(); it != m_apps.cend(); ++it)
        if (it->active)
            return it.key();
    return 0;
}

QString FakeAxWorld::find(const QString& role, const QString& title) const
{
    QMutexLocker lock(&m_mutex);
    for (auto it = m_elements.cbegin(); it != m_elements.cend(); ++it) {
        const auto& a = it->attributes;
        const QString name = a.value(QStringLiteral("AXTitle")).string;
        if (a.value(QStringLiteral("AXRole")).string == role &&
            (name == title || (name.isEmpty() && a.value(QStringLiteral("AXValue")).string == title)))
            return it.key();
    }
    return {};
}

QString FakeAxWorld::text(const QString& key) const
{
    QMutexLocker lock(&m_mutex);
    if (m_secrets.contains(key))
        return m_secrets.value(key);
    return m_elements.value(key).attributes.value(QStringLiteral("AXValue")).string;
}

QStringList FakeAxWorld::actionLog() const
{
    QMutexLocker lock(&m_mutex);
    return m_actionLog;
}

QStringList FakeAxWorld::inputLog() const
{
    QMutexLocker lock(&m_mutex);
    return m_inputLog;
}

QStringList FakeAxWorld::clickLog() const
{
    QMutexLocker lock(&m_mutex);
    return m_clickLog;
}

QStringList FakeAxWorld::pointerLog() const
{
    QMutexLocker lock(&m_mutex);
    return m_pointerLog;
}

QString FakeAxWorld::pasteboard() const
{
    QMutexLocker lock(&m_mutex);
    return m_pasteboard;
}

void FakeAxWorld::setPasteboard(const QString& text)
{
    QMutexLocker lock(&m_mutex);
    m_pasteboard = text;
    m_pasteboardText = true;
    // clearContents, then setString: nothing else stays on the pasteboard.
    m_pasteboardConcealed = false;
    m_pasteboardPng.clear();
    ++m_pasteboardChanges;
}

void FakeAxWorld::addLaunchable(const QString& bundleId, const QString& name, const QString& title)
{
    QMutexLocker lock(&m_mutex);
    m_launchable.insert(bundleId, Launchable{name, title});
}

void FakeAxWorld::setPasteboardConcealed(const QString& text)
{
    QMutexLocker lock(&m_mutex);
    m_pasteboard = text;
    m_pasteboardText = true;
    m_pasteboardConcealed = true;
    m_pasteboardPng.clear();
    ++m_pasteboardChanges;
}

void FakeAxWorld::setPasteboardImage(const QByteArray& png)
{
    QMutexLocker lock(&m_mutex);
    m_pasteboard.clear();
    m_pasteboardText = false;
    m_pasteboardConcealed = false;
    m_pasteboardPng = png;
    ++m_pasteboardChanges;
}

qint64 FakeAxWorld::pasteboardChanges() const
{
    QMutexLocker lock(&m_mutex);
    return m_pasteboardChanges;
}

void FakeAxWorld::setTrusted(bool trusted)
{
    QMutexLocker lock(&m_mutex);
    m_trusted = trusted;
}

void FakeAxWorld::setScreenCaptureAllowed(bool allowed)
{
    QMutexLocker lock(&m_mutex);
    m_capture = allowed;
}

void FakeAxWorld::setHung(qint64 pid, bool hung)
{
    QMutexLocker lock(&m_mutex);
    if (hung)
        m_hung.insert(pid);
    else
        m_hung.remove(pid);
}

void FakeAxWorld::setIgnoresValueWrites(const QString& key, bool ignores)
{
    QMutexLocker lock(&m_mutex);
    if (m_elements.contains(key))
        m_elements[key].ignoresValueWrites = ignores;
}

void FakeAxWorld::setValueUnreadable(const QString& key, bool unreadable)
{
    QMutexLocker lock(&m_mutex);
    if (m_elements.contains(key))
        m_elements[key].valueUnreadable = unreadable;
}

void FakeAxWorld::setPasteboardHoldsNoText()
{
    QMutexLocker lock(&m_mutex);
    m_pasteboard.clear();
    m_pasteboardText = false;
    m_pasteboardConcealed = false;
    ++m_pasteboardChanges;
}

void FakeAxWorld::failNextAction(const QString& key, AxError error)
{
    QMutexLocker lock(&m_mutex);
    m_nextActionError.insert(key, error);
}

QHash<qint64, double> FakeAxWorld::messagingTimeouts() const
{
    QMutexLocker lock(&m_mutex);
    return m_timeouts;
}

QRectF FakeAxWorld::frameOf(const QString& key) const
{
    const Element& e = m_elements[key];
    return QRectF(e.attributes.value(QStringLiteral("AXPosition")).point,
                  e.attributes.value(QStringLiteral("AXSize")).size);
}

QString FakeAxWorld::deepestAt(const QString& key, QPointF point) const
{
    for (const auto& kid : m_elements.value(key).attributes.value(QStringLiteral("AXChildren")).elements) {
        if (m_elements.contains(kid.key()) && frameOf(kid.key()).contains(point))
            return deepestAt(kid.key(), point);
    }
    return key;
}

QString FakeAxWorld::focusedOf(qint64 pid) const
{
    return m_elements.value(appKey(pid)).attributes.value(QStringLiteral("AXFocusedUIElement")).element.key();
}

void FakeAxWorld::focus(const QString& key)
{
    const qint64 pid = m_elements.value(key).pid;
    const QString old = focusedOf(pid);
    if (m_elements.contains(old))
        m_elements[old].attributes.insert(QStringLiteral("AXFocused"), AxValue::ofBool(false));
    m_elements[key].attributes.insert(QStringLiteral("AXFocused"), AxValue::ofBool(true));
    m_elements[appKey(pid)].attributes.insert(QStringLiteral("AXFocusedUIElement"), AxValue::ofElement(ref(key)));
}

void FakeAxWorld::insertText(const QString& key, const QString& text)
{
    Element& e = m_elements[key];
    const bool secure = e.attributes.value(QStringLiteral("AXSubrole")).string == QLatin1String("AXSecureTextField");
    QString value = secure ? m_secrets.value(key) : e.attributes.value(QStringLiteral("AXValue")).string;
    const AxValue range = e.attributes.value(QStringLiteral("AXSelectedTextRange"));
    const qsizetype at = std::clamp<qsizetype>(range.rangeLocation, 0, value.size());
    const qsizetype length = std::clamp<qsizetype>(range.rangeLength, 0, value.size() - at);
    value.replace(at, length, text);
    if (secure) {
        m_secrets.insert(key, value);
        // What AppKit shows of a secure field: bullets, never the text.
        e.attributes.insert(QStringLiteral("AXValue"), AxValue::ofString(QString(value.size(), QChar(0x2022))));
    } else {
        e.attributes.insert(QStringLiteral("AXValue"), AxValue::ofString(value));
    }
    e.attributes.insert(QStringLiteral("AXNumberOfCharacters"), AxValue::ofNumber(static_cast<double>(value.size())));
    e.attributes.insert(QStringLiteral("AXSelectedTextRange"), AxValue::ofRange(at + text.size(), 0));
}

// ---- FakeAxApi ----

bool FakeAxApi::hung(qint64 pid)
{
    double timeout = 0;
    {
        QMutexLocker lock(&m_world->m_mutex);
        if (!m_world->m_hung.contains(pid))
            return false;
        timeout = m_world->m_timeouts.value(pid, 6.0);
    }
    // The app never answers: the call waits out its messaging timeout (kept short in tests).
    QThread::msleep(static_cast<unsigned long>(std::min(timeout * 1000, 200.0)));
    return true;
}

bool FakeAxApi::isProcessTrusted(bool prompt)
{
    Q_UNUSED(prompt)
    QMutexLocker lock(&m_world->m_mutex);
    return m_world->m_trusted;
}

bool FakeAxApi::screenCaptureAllowed()
{
    QMutexLocker lock(&m_world->m_mutex);
    return m_world->m_capture;
}

bool FakeAxApi::requestScreenCaptureAccess()
{
    QMutexLocker lock(&m_world->m_mutex);
    m_world->m_captureListed = true;
    return m_world->m_capture;
}

bool FakeAxWorld::screenCaptureListed() const
{
    QMutexLocker lock(&m_mutex);
    return m_captureListed;
}

QList<Automation::Mac::RunningApp> FakeAxApi::runningApplications()
{
    QMutexLocker lock(&m_world->m_mutex);
    QList<Automation::Mac::RunningApp> out;
    for (auto it = m_world->m_apps.cbegin(); it != m_world->m_apps.cend(); ++it)
        out.append({it.key(), it->bundleId, it->name,
                    QStringLiteral("/Applications/%1.app/Contents/MacOS/%1").arg(it->name), it->active, it->regular});
    return out;
}

QList<Automation::Mac::ServerWindow> FakeAxApi::windowList()
{
    QMutexLocker lock(&m_world->m_mutex);
    QList<Automation::Mac::ServerWindow> front, rest;
    quint32 number = 100;
    for (auto it = m_world->m_apps.cbegin(); it != m_world->m_apps.cend(); ++it) {
        for (const auto& w :
             m_world->m_elements.value(appKey(it.key())).attributes.value(QStringLiteral("AXWindows")).elements) {
            if (!m_world->m_elements.contains(w.key()))
                continue;
            const auto& attrs = m_world->m_elements.value(w.key()).attributes;
            Automation::Mac::ServerWindow sw{number++,
                                             it.key(),
                                             attrs.value(QStringLiteral("AXTitle")).string,
                                             m_world->frameOf(w.key()),
                                             0,
                                             !attrs.value(QStringLiteral("AXMinimized")).boolean};
            if (!m_world->m_capture)
                sw.title.clear(); // kCGWindowName needs screen recording
            (it->active ? front : rest).append(sw);
        }
    }
    return m_world->m_serverWindows + front + rest;
}

QList<Automation::Mac::Display> FakeAxApi::displays()
{
    // While a second display is attached (setSecondDisplay, setDisplayChangeAtCapture), it
    // stands to the right.
    bool second = false;
    {
        QMutexLocker lock(&m_world->m_mutex);
        second = m_world->m_secondDisplay;
    }
    if (second || m_world->displayChanges() % 2 == 1)
        return {Automation::Mac::Display{QRectF(0, 0, 1440, 900), 2.0, 1, true},
                Automation::Mac::Display{QRectF(1440, 0, 1920, 1080), 1.0, 2, false}};
    return {Automation::Mac::Display{QRectF(0, 0, 1440, 900), 2.0, 1, true}};
}

AxElement FakeAxApi::out(const QString& key)
{
    if (key.isEmpty() || !m_world->freshReferences())
        return m_world->ref(key);
    QMutexLocker lock(&m_internMutex);
    auto& [interned, object] = m_interned[key];
    if (std::shared_ptr<const void> live = object.lock())
        return AxElement(interned, std::move(live));
    // A new reference: a key of its own (AxApiMac's carries the reference's address).
    interned = key + QLatin1Char('#') + QString::number(++m_generation);
    auto retained = std::make_shared<int>(0);
    object = retained;
    return AxElement(interned, std::move(retained));
}

AxValue FakeAxApi::outValue(AxValue value)
{
    m_world->countHandedOut((value.type == AxValue::Type::Element ? 1 : 0) + value.elements.size());
    if (value.type == AxValue::Type::Element)
        value.element = out(value.element.key());
    for (AxElement& e : value.elements)
        e = out(e.key());
    return value;
}

QString FakeAxApi::in(const AxElement& element)
{
    return element.key().section(QLatin1Char('#'), 0, 0);
}

bool FakeAxApi::activateApplication(qint64 pid)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!m_world->m_apps.contains(pid))
        return false;
    // macOS 14 and later: "no longer has effect"; the call still answers yes.
    if (!m_world->m_activationIgnored)
        m_world->activate(pid);
    return true;
}

AxElement FakeAxApi::applicationElement(qint64 pid)
{
    return out(appKey(pid));
}

bool FakeAxApi::selectAsciiInputSource(QString* previous)
{
    QMutexLocker lock(&m_world->m_mutex);
    previous->clear();
    if (!m_world->m_inputMethod)
        return true;
    *previous = QStringLiteral("com.apple.inputmethod.SCIM.ITABC");
    m_world->m_inputMethod = false;
    return true;
}

void FakeAxApi::restoreInputSource(const QString& previous)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!previous.isEmpty())
        m_world->m_inputMethod = true;
}

std::optional<quint16> FakeAxApi::virtualKeyForCharacter(QChar character)
{
    for (quint16 code = 0; code < 0x80; ++code)
        if (m_world->characterOf(code) == character)
            return code;
    return std::nullopt;
}

AxError FakeAxApi::setMessagingTimeout(const AxElement& element, double seconds)
{
    QMutexLocker lock(&m_world->m_mutex);
    m_world->m_timeouts.insert(m_world->m_elements.value(in(element)).pid, seconds);
    return AxError::Success;
}

QList<AxRead> FakeAxApi::copyAttributes(const AxElement& element, const QStringList& attributes)
{
    QList<AxRead> reads;
    qint64 pid = 0;
    {
        QMutexLocker lock(&m_world->m_mutex);
        pid = m_world->m_elements.value(in(element)).pid;
        if (!m_world->m_trusted) {
            for (qsizetype i = 0; i < attributes.size(); ++i)
                reads.append(AxRead{AxError::ApiDisabled, {}});
            return reads;
        }
    }
    if (hung(pid)) {
        for (qsizetype i = 0; i < attributes.size(); ++i)
            reads.append(AxRead{AxError::CannotComplete, {}});
        return reads;
    }
    QMutexLocker lock(&m_world->m_mutex);
    const auto it = m_world->m_elements.constFind(in(element));
    for (const QString& name : attributes) {
        if (it == m_world->m_elements.constEnd()) {
            reads.append(AxRead{AxError::InvalidElement, {}});
            continue;
        }
        if (it->valueUnreadable &&
            (name == QLatin1String("AXValue") || name == QLatin1String("AXNumberOfCharacters"))) {
            reads.append(AxRead{AxError::AttributeUnsupported, {}});
            continue;
        }
        if (name == QLatin1String("AXFrontmost") &&
            it->attributes.value(QStringLiteral("AXRole")).string == QLatin1String("AXApplication")) {
            reads.append(AxRead{AxError::Success, AxValue::ofBool(m_world->frontmost() == it->pid)});
            continue;
        }
        const auto value = it->attributes.constFind(name);
        if (value == it->attributes.constEnd()) {
            reads.append(AxRead{AxError::NoValue, {}});
            continue;
        }
        AxValue v = *value;
        if (v.type == AxValue::Type::Elements)
            v.elements.removeIf([&](const AxElement& e) { return m_world->isGone(e.key()); });
        if (name == QLatin1String("AXChildren") && m_world->m_webContentHidden.contains(it->pid) &&
            it->attributes.value(QStringLiteral("AXRole")).string == QLatin1String("AXWebArea"))
            v.elements.clear(); // a page Electron has not built for an AT yet
        reads.append(AxRead{AxError::Success, outValue(std::move(v))});
    }
    return reads;
}

AxError FakeAxApi::setAttribute(const AxElement& element, const QString& attribute, const AxValue& value)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!m_world->m_trusted)
        return AxError::ApiDisabled;
    const qint64 pid = m_world->m_elements.value(in(element)).pid;
    lock.unlock();
    if (hung(pid))
        return AxError::CannotComplete;
    lock.relock();
    if (!m_world->m_elements.contains(in(element)))
        return AxError::InvalidElement;
    auto& e = m_world->m_elements[in(element)];
    const QString role = e.attributes.value(QStringLiteral("AXRole")).string;
    if (attribute == QLatin1String("AXFocused")) {
        if (value.boolean)
            m_world->focus(in(element));
        return AxError::Success;
    }
    if ((attribute == QLatin1String("AXManualAccessibility") ||
         attribute == QLatin1String("AXEnhancedUserInterface")) &&
        role == QLatin1String("AXApplication") && m_world->m_webContentHidden.contains(pid)) {
        if (value.boolean)
            m_world->m_webContentHidden.remove(pid); // Electron builds its pages' accessibility
        return AxError::Success;
    }
    if (attribute == QLatin1String("AXFrontmost") && role == QLatin1String("AXApplication")) {
        // What brings an app forward on every macOS, 14 and later included.
        if (value.boolean)
            m_world->activate(pid);
        return AxError::Success;
    }
    if (attribute == QLatin1String("AXMain")) {
        const QString app = appKey(pid);
        m_world->m_elements[app].attributes.insert(QStringLiteral("AXMainWindow"),
                                                   AxValue::ofElement(m_world->ref(in(element))));
        m_world->m_elements[app].attributes.insert(QStringLiteral("AXFocusedWindow"),
                                                   AxValue::ofElement(m_world->ref(in(element))));
        return AxError::Success;
    }
    if (role == QLatin1String("AXWindow") && attribute == QLatin1String("AXFullScreen")) {
        // Out of full screen: the window's frame from before.
        if (!value.boolean && e.attributes.value(QStringLiteral("AXFullScreen")).boolean &&
            m_world->m_beforeFullScreen.contains(in(element))) {
            const QRectF frame = m_world->m_beforeFullScreen.take(in(element));
            e.attributes.insert(QStringLiteral("AXPosition"), AxValue::ofPoint(frame.topLeft()));
            e.attributes.insert(QStringLiteral("AXSize"), AxValue::ofSize(frame.size()));
        }
        e.attributes.insert(attribute, value);
        return AxError::Success;
    }
    if (role == QLatin1String("AXWindow") && attribute == QLatin1String("AXPosition")) {
        // A window's elements move with it: their frames are in screen coordinates.
        m_world->moveSubtree(in(element), value.point - e.attributes.value(attribute).point);
        return AxError::Success;
    }
    if (role == QLatin1String("AXWindow") &&
        (attribute == QLatin1String("AXMinimized") || attribute == QLatin1String("AXSize"))) {
        e.attributes.insert(attribute, value);
        return AxError::Success;
    }
    if (attribute == QLatin1String("AXSelectedTextRange") && isTextRole(role)) {
        e.attributes.insert(attribute, value);
        return AxError::Success;
    }
    if ((attribute == QLatin1String("AXValue") || attribute == QLatin1String("AXSelectedText")) && isTextRole(role)) {
        if (e.ignoresValueWrites)
            return AxError::Success;
        if (attribute == QLatin1String("AXValue")) {
            e.attributes.insert(QStringLiteral("AXSelectedTextRange"),
                                AxValue::ofRange(0, m_world->text(in(element)).size()));
        }
        m_world->insertText(in(element), value.string);
        return AxError::Success;
    }
    return AxError::AttributeUnsupported;
}

AxError FakeAxApi::attributeCount(const AxElement& element, const QString& attribute, qint64* count)
{
    *count = 0;
    QList<AxElement> all;
    const AxError error = attributeValues(element, attribute, 0, std::numeric_limits<int>::max(), &all, false);
    *count = all.size();
    return error;
}

AxError FakeAxApi::attributeValues(const AxElement& element, const QString& attribute, qint64 index, qint64 max,
                                   QList<AxElement>* out)
{
    return attributeValues(element, attribute, index, max, out, true);
}

AxError FakeAxApi::attributeValues(const AxElement& element, const QString& attribute, qint64 index, qint64 max,
                                   QList<AxElement>* out, bool handOut)
{
    out->clear();
    qint64 pid = 0;
    {
        QMutexLocker lock(&m_world->m_mutex);
        if (!m_world->m_trusted)
            return AxError::ApiDisabled;
        pid = m_world->m_elements.value(in(element)).pid;
    }
    if (hung(pid))
        return AxError::CannotComplete;
    QList<QString> keys;
    {
        QMutexLocker lock(&m_world->m_mutex);
        const auto it = m_world->m_elements.constFind(in(element));
        if (it == m_world->m_elements.constEnd())
            return AxError::InvalidElement;
        const auto value = it->attributes.constFind(attribute);
        if (value == it->attributes.constEnd())
            return AxError::NoValue;
        bool hidden = attribute == QLatin1String("AXChildren") && m_world->m_webContentHidden.contains(it->pid) &&
                      it->attributes.value(QStringLiteral("AXRole")).string == QLatin1String("AXWebArea");
        for (const AxElement& e : value->elements)
            if (!hidden && !m_world->isGone(e.key()))
                keys.append(e.key());
    }
    for (qsizetype i = index; i < keys.size() && i < index + max; ++i)
        out->append(handOut ? this->out(keys.at(i)) : AxElement());
    if (handOut)
        m_world->countHandedOut(out->size());
    return AxError::Success;
}

AxError FakeAxApi::actionNames(const AxElement& element, QStringList* names)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!m_world->m_trusted)
        return AxError::ApiDisabled;
    const auto it = m_world->m_elements.constFind(in(element));
    if (it == m_world->m_elements.constEnd())
        return AxError::InvalidElement;
    const qint64 pid = it->pid;
    *names = it->actions;
    lock.unlock();
    return hung(pid) ? AxError::CannotComplete : AxError::Success;
}

AxError FakeAxApi::performAction(const AxElement& element, const QString& action)
{
    std::function<void(FakeAxWorld&, const QString&)> hook;
    AxError answer = AxError::Success;
    {
        QMutexLocker lock(&m_world->m_mutex);
        if (!m_world->m_trusted)
            return AxError::ApiDisabled;
        const auto it = m_world->m_elements.find(in(element));
        if (it == m_world->m_elements.end())
            return AxError::InvalidElement;
        if (m_world->m_hung.contains(it->pid)) {
            lock.unlock();
            hung(m_world->m_elements.value(in(element)).pid);
            return AxError::CannotComplete;
        }
        if (!it->actions.contains(action))
            return AxError::ActionUnsupported;
        answer = m_world->m_nextActionError.take(in(element));
        if (answer != AxError::Success && answer != AxError::CannotComplete)
            return answer;
        m_world->m_actionLog.append(in(element) + QLatin1Char(':') + action);
        if (it->attributes.value(QStringLiteral("AXRole")).string == QLatin1String("AXCheckBox") &&
            action == QLatin1String("AXPress")) {
            const double now = it->attributes.value(QStringLiteral("AXValue")).number;
            it->attributes.insert(QStringLiteral("AXValue"), AxValue::ofNumber(now != 0 ? 0 : 1));
        }
        hook = m_world->m_hooks.value(in(element));
        // Menus: a menu-bar item's press opens its menu (a second press closes it), an item's
        // press runs it and closes every menu, AXCancel closes them.
        const QString role = it->attributes.value(QStringLiteral("AXRole")).string;
        // AXScrollToVisible scrolls the scroll view around the element as little as it needs.
        if (action == QLatin1String("AXScrollToVisible")) {
            const QString area = m_world->scrollAreaOf(in(element));
            if (!area.isEmpty()) {
                const QRectF view = m_world->frameOf(area);
                const QRectF at = m_world->frameOf(in(element));
                const double offset = m_world->m_scrollViews.value(area).offset;
                if (at.top() < view.top())
                    m_world->scrollTo(area, offset - (view.top() - at.top()));
                else if (at.bottom() > view.bottom())
                    m_world->scrollTo(area, offset + (at.bottom() - view.bottom()));
            }
        }
        if (role == QLatin1String("AXMenuBarItem") && action == QLatin1String("AXPress"))
            m_world->showMenu(m_world->m_openMenu == in(element) ? QString() : in(element));
        else if ((role == QLatin1String("AXMenuItem") || role == QLatin1String("AXMenuBarItem")) &&
                 (action == QLatin1String("AXPress") || action == QLatin1String("AXCancel")))
            m_world->showMenu(QString());
    }
    if (hook)
        hook(*m_world, action);
    return answer;
}

AxError FakeAxApi::elementAtPosition(const AxElement& application, QPointF point, AxElement* out)
{
    QMutexLocker lock(&m_world->m_mutex);
    for (const auto& w :
         m_world->m_elements.value(in(application)).attributes.value(QStringLiteral("AXWindows")).elements) {
        if (m_world->m_elements.contains(w.key()) && m_world->frameOf(w.key()).contains(point)) {
            *out = this->out(m_world->deepestAt(w.key(), point));
            return AxError::Success;
        }
    }
    return AxError::NoValue;
}

qint64 FakeAxApi::pidOf(const AxElement& element)
{
    QMutexLocker lock(&m_world->m_mutex);
    return m_world->m_elements.value(in(element)).pid;
}

AxError FakeAxApi::observe(qint64 pid, const QStringList& notifications, Notification callback)
{
    QMutexLocker lock(&m_world->m_mutex);
    m_world->m_observers.insert(pid, FakeAxWorld::Observer{notifications, std::move(callback)});
    return AxError::Success;
}

void FakeAxApi::unobserve(qint64 pid)
{
    QMutexLocker lock(&m_world->m_mutex);
    m_world->m_observers.remove(pid);
    m_world->m_pendingNotifications.removeIf([pid](const auto& pending) { return pending.first == pid; });
}

void FakeAxApi::pumpNotifications(int waitMs)
{
    QDeadlineTimer deadline(std::max(waitMs, 0));
    for (;;) {
        QList<std::pair<Notification, QString>> due;
        {
            QMutexLocker lock(&m_world->m_mutex);
            for (const auto& [pid, name] : std::as_const(m_world->m_pendingNotifications)) {
                const auto observer = m_world->m_observers.constFind(pid);
                if (observer != m_world->m_observers.constEnd())
                    due.append({observer->callback, name});
            }
            m_world->m_pendingNotifications.clear();
        }
        for (const auto& [callback, name] : std::as_const(due))
            callback(Automation::Mac::AxElement(), name);
        if (!due.isEmpty() || deadline.hasExpired())
            return;
        QThread::msleep(static_cast<unsigned long>(std::clamp<qint64>(deadline.remainingTime(), 1, 5)));
    }
}

void FakeAxApi::streamNotices(NoticeSink sink)
{
    QMutexLocker lock(&m_world->m_mutex);
    m_world->m_noticeSink = std::move(sink);
}

bool FakeAxWorld::notice(const Automation::Mac::AxNotice& notice)
{
    Automation::Mac::AxApi::NoticeSink sink;
    bool queued = false;
    {
        QMutexLocker lock(&m_mutex);
        sink = m_noticeSink;
        const auto observer = m_observers.constFind(notice.pid);
        if (observer != m_observers.constEnd() && observer->notifications.contains(notice.notification)) {
            m_pendingNotifications.append({notice.pid, notice.notification});
            queued = true;
        }
    }
    if (sink)
        sink(notice);
    return sink || queued;
}

QList<qint64> FakeAxWorld::observed() const
{
    QMutexLocker lock(&m_mutex);
    return m_observers.keys();
}

bool FakeAxWorld::streaming() const
{
    QMutexLocker lock(&m_mutex);
    return static_cast<bool>(m_noticeSink);
}

// Input reaches the app as a real Mac delivers it: posting answers at once, the app acts on the
// event when the world's delivery gets to it (at once, or after the input delay).
bool FakeAxApi::postKey(quint16 virtualKey, bool down, quint64 flags)
{
    return m_world->trusted() && m_world->deliver([world = m_world.get(), virtualKey, down, flags] {
        FakeAxApi(std::shared_ptr<FakeAxWorld>(world, [](FakeAxWorld*) {})).applyKey(virtualKey, down, flags);
    });
}

bool FakeAxApi::postText(const QString& text)
{
    return m_world->trusted() && m_world->deliver([world = m_world.get(), text] {
        FakeAxApi(std::shared_ptr<FakeAxWorld>(world, [](FakeAxWorld*) {})).applyText(text);
    });
}

bool FakeAxApi::postMouse(QPointF point, MouseButton button, bool down, int clickCount)
{
    return m_world->trusted() && m_world->deliver([world = m_world.get(), point, button, down, clickCount] {
        FakeAxApi(std::shared_ptr<FakeAxWorld>(world, [](FakeAxWorld*) {})).applyMouse(point, button, down, clickCount);
    });
}

bool FakeAxApi::moveMouse(QPointF point)
{
    return m_world->trusted() && m_world->deliver([world = m_world.get(), point] {
        FakeAxApi(std::shared_ptr<FakeAxWorld>(world, [](FakeAxWorld*) {})).applyMove(point);
    });
}

bool FakeAxApi::dragMouse(QPointF point, MouseButton button)
{
    return m_world->trusted() && m_world->deliver([world = m_world.get(), point, button] {
        FakeAxApi(std::shared_ptr<FakeAxWorld>(world, [](FakeAxWorld*) {})).applyDrag(point, button);
    });
}

bool FakeAxApi::postScroll(QPointF point, int down, int right, bool pixels)
{
    Q_UNUSED(right)
    return m_world->trusted() && m_world->deliver([world = m_world.get(), point, down, pixels] {
        FakeAxApi(std::shared_ptr<FakeAxWorld>(world, [](FakeAxWorld*) {})).applyScroll(point, down, pixels);
    });
}

bool FakeAxApi::applyScroll(QPointF point, int down, bool pixels)
{
    QMutexLocker lock(&m_world->m_mutex);
    m_world->m_pointerLog.append(QStringLiteral("scroll:%1,%2:%3%4")
                                     .arg(point.x())
                                     .arg(point.y())
                                     .arg(down)
                                     .arg(pixels ? QStringLiteral("px") : QStringLiteral("lines")));
    // The innermost scroll view under the point takes the wheel.
    QString area;
    for (auto it = m_world->m_scrollViews.cbegin(); it != m_world->m_scrollViews.cend(); ++it) {
        const QRectF frame = m_world->frameOf(it.key());
        if (frame.contains(point) && (area.isEmpty() || frame.height() < m_world->frameOf(area).height()))
            area = it.key();
    }
    if (area.isEmpty())
        return true;
    m_world->scrollTo(area, m_world->m_scrollViews.value(area).offset + (pixels ? down : 10.0 * down));
    return true;
}

bool FakeAxApi::applyKey(quint16 virtualKey, bool down, quint64 flags)
{
    if (down) {
        FakeAxWorld::KeyHook hook;
        QChar typed;
        {
            QMutexLocker lock(&m_world->m_mutex);
            if (!m_world->m_trusted)
                return false;
            hook = m_world->m_keyHooks.value(m_world->frontmost());
            typed = m_world->characterOf(virtualKey);
        }
        if (hook && hook(*m_world, typed, virtualKey, flags)) {
            QMutexLocker lock(&m_world->m_mutex);
            m_world->m_inputLog.append(
                QStringLiteral("down:0x%1:0x%2").arg(virtualKey, 2, 16, QLatin1Char('0')).arg(flags, 0, 16));
            return true;
        }
    }
    qint64 quitting = 0;
    {
        QMutexLocker lock(&m_world->m_mutex);
        if (!m_world->m_trusted)
            return false;
        m_world->m_inputLog.append(QStringLiteral("%1:0x%2:0x%3")
                                       .arg(down ? QStringLiteral("down") : QStringLiteral("up"))
                                       .arg(virtualKey, 2, 16, QLatin1Char('0'))
                                       .arg(flags, 0, 16));
        if (!down)
            return true;
        // AppKit resolves a Command shortcut by the character the key types on the selected
        // layout, not by the key's position.
        const QChar typed = m_world->characterOf(virtualKey);
        const qint64 front = m_world->frontmost();
        if ((flags & Command) && typed == QLatin1Char('q')) {
            quitting = front; // the frontmost app quits
        } else if (m_world->m_inputMethod && !(flags & Command) && !typed.isNull()) {
            m_world->m_composition += typed; // the input method composes; the field gets nothing
            return true;
        } else {
            const QString focused = m_world->focusedOf(front);
            if (!m_world->m_elements.contains(focused))
                return true;
            auto& e = m_world->m_elements[focused];
            if (!isTextRole(e.attributes.value(QStringLiteral("AXRole")).string))
                return true;
            const qsizetype length = m_world->text(focused).size();
            if ((flags & Command) && typed == QLatin1Char('a')) {
                e.attributes.insert(QStringLiteral("AXSelectedTextRange"), AxValue::ofRange(0, length));
            } else if ((flags & Command) && typed == QLatin1Char('v')) {
                m_world->insertText(focused, m_world->m_pasteboard);
            } else if (virtualKey == 0x33 && !(flags & Command)) { // backspace
                AxValue range = e.attributes.value(QStringLiteral("AXSelectedTextRange"));
                if (range.rangeLength == 0 && range.rangeLocation > 0)
                    e.attributes.insert(QStringLiteral("AXSelectedTextRange"),
                                        AxValue::ofRange(range.rangeLocation - 1, 1));
                m_world->insertText(focused, QString());
            } else if ((virtualKey == 0x24 || virtualKey == 0x30) && !(flags & Command) &&
                       e.attributes.value(QStringLiteral("AXRole")).string == QLatin1String("AXTextArea")) {
                m_world->insertText(focused, virtualKey == 0x24 ? QStringLiteral("\n") : QStringLiteral("\t"));
            }
            return true;
        }
    }
    if (quitting)
        m_world->quit(quitting);
    return true;
}

bool FakeAxApi::applyText(const QString& text)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!m_world->m_trusted)
        return false;
    m_world->m_inputLog.append(QStringLiteral("text:") + text);
    if (m_world->m_inputMethod) {
        // The event's key code (0, the "a" key) goes into the composition; its Unicode payload
        // is lost (ghost-os 5d27225).
        m_world->m_composition += m_world->characterOf(0x00);
        return true;
    }
    const QString focused = m_world->focusedOf(m_world->frontmost());
    if (m_world->m_elements.contains(focused) &&
        isTextRole(m_world->m_elements.value(focused).attributes.value(QStringLiteral("AXRole")).string))
        m_world->insertText(focused, text);
    return true;
}

namespace {

QString buttonName(Automation::Mac::AxApi::MouseButton button)
{
    using MouseButton = Automation::Mac::AxApi::MouseButton;
    return button == MouseButton::Left    ? QStringLiteral("left")
           : button == MouseButton::Right ? QStringLiteral("right")
                                          : QStringLiteral("other");
}

QString pointText(QPointF p)
{
    return QStringLiteral("%1,%2").arg(p.x()).arg(p.y());
}

} // namespace

bool FakeAxApi::applyMouse(QPointF point, MouseButton button, bool down, int clickCount)
{
    QString target;
    {
        QMutexLocker lock(&m_world->m_mutex);
        if (!m_world->m_trusted)
            return false;
        m_world->m_mouse = point;
        m_world->m_pointerLog.append(
            QStringLiteral("%1:%2:%3:%4")
                .arg(down ? QStringLiteral("down") : QStringLiteral("up"), buttonName(button), pointText(point))
                .arg(clickCount));
        if (down) {
            m_world->m_pressedAt = point;
            return true;
        }
        // A left click (down and up at the same place) acts on what is under it; a drag does not.
        if (button != MouseButton::Left || point != m_world->m_pressedAt)
            return true;
        m_world->m_clickLog.append(pointText(point));
        const qint64 pid = m_world->frontmost();
        for (const auto& w :
             m_world->m_elements.value(appKey(pid)).attributes.value(QStringLiteral("AXWindows")).elements) {
            if (m_world->m_elements.contains(w.key()) && m_world->frameOf(w.key()).contains(point)) {
                target = m_world->deepestAt(w.key(), point);
                break;
            }
        }
        if (target.isEmpty())
            return true;
        const QString role = m_world->m_elements.value(target).attributes.value(QStringLiteral("AXRole")).string;
        if (isTextRole(role)) {
            m_world->focus(target);
            return true;
        }
    }
    // A click on a button or check box does what its press does.
    QStringList actions;
    if (actionNames(m_world->ref(target), &actions) == AxError::Success && actions.contains(QStringLiteral("AXPress")))
        performAction(m_world->ref(target), QStringLiteral("AXPress"));
    return true;
}

bool FakeAxApi::applyMove(QPointF point)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!m_world->m_trusted)
        return false;
    m_world->m_mouse = point;
    m_world->m_pointerLog.append(QStringLiteral("move:") + pointText(point));
    return true;
}

bool FakeAxApi::applyDrag(QPointF point, MouseButton button)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!m_world->m_trusted)
        return false;
    m_world->m_mouse = point;
    m_world->m_pointerLog.append(QStringLiteral("drag:%1:%2").arg(buttonName(button), pointText(point)));
    return true;
}

std::optional<QPointF> FakeAxApi::mouseLocation()
{
    QMutexLocker lock(&m_world->m_mutex);
    return m_world->m_mouse;
}

qint64 FakeAxApi::pasteboardChangeCount()
{
    return m_world->pasteboardChanges();
}

std::optional<QString> FakeAxApi::pasteboardString()
{
    QMutexLocker lock(&m_world->m_mutex);
    if (!m_world->m_pasteboardText)
        return std::nullopt;
    return m_world->m_pasteboard;
}

bool FakeAxApi::setPasteboardString(const QString& text)
{
    m_world->setPasteboard(text);
    return true;
}

std::optional<qint64> FakeAxApi::launchApplication(const QString& bundleId, const QStringList& arguments,
                                                   QString* error)
{
    Q_UNUSED(arguments)
    FakeAxWorld::Launchable launchable;
    {
        QMutexLocker lock(&m_world->m_mutex);
        const auto it = m_world->m_launchable.constFind(bundleId);
        if (it == m_world->m_launchable.cend()) {
            *error = QStringLiteral("no app has the bundle id %1").arg(bundleId);
            return std::nullopt;
        }
        launchable = *it;
    }
    // One instance per bundle id, as LaunchServices opens an app that already runs.
    for (const auto& app : runningApplications()) {
        if (app.bundleId == bundleId)
            return app.pid;
    }
    qint64 pid = 0;
    if (!QProcess::startDetached(QStringLiteral("sleep"), {QStringLiteral("300")}, {}, &pid) || pid <= 0) {
        *error = QStringLiteral("sleep could not be started");
        return std::nullopt;
    }
    m_world->addApp(launchable.name, bundleId, pid);
    m_world->addWindow(pid, launchable.title, QRectF(200, 200, 400, 300));
    return pid;
}

bool FakeAxApi::terminateApplication(qint64 pid, bool force)
{
    bool known = false;
    for (const auto& app : runningApplications())
        known = known || app.pid == pid;
    if (!known)
        return false;
    return ::kill(static_cast<pid_t>(pid), force ? SIGKILL : SIGTERM) == 0;
}

QStringList FakeAxApi::pasteboardTypes()
{
    QMutexLocker lock(&m_world->m_mutex);
    QStringList out;
    if (m_world->m_pasteboardText)
        out.append(QStringLiteral("public.utf8-plain-text"));
    if (!m_world->m_pasteboardPng.isEmpty())
        out.append(QStringLiteral("public.png"));
    if (m_world->m_pasteboardConcealed)
        out.append(QStringLiteral("org.nspasteboard.ConcealedType"));
    return out;
}

QByteArray FakeAxApi::pasteboardData(const QString& type)
{
    QMutexLocker lock(&m_world->m_mutex);
    if (type == QLatin1String("public.png"))
        return m_world->m_pasteboardPng;
    if (type == QLatin1String("public.utf8-plain-text") && m_world->m_pasteboardText)
        return m_world->m_pasteboard.toUtf8();
    return {};
}

std::optional<QImage> FakeAxApi::captureDisplay(quint32 displayId, QRectF* frame)
{
    if (!screenCaptureAllowed())
        return std::nullopt;
    m_world->changeDisplays();
    // As CoreGraphics captures: the display's own pixels, its scale times its points.
    const QList<Automation::Mac::Display> attached = displays();
    const auto display = std::ranges::find_if(attached, [&](const Automation::Mac::Display& d) {
        return displayId == 0 ? d.id == attached.first().id : d.id == displayId;
    });
    if (display == attached.end())
        return std::nullopt;
    *frame = display->frame;
    QImage image((display->frame.size() * display->scale).toSize(), QImage::Format_RGB32);
    image.fill(display->id == 1 ? QColor(30, 60, 90) : QColor(90, 60, 30));
    QPainter painter(&image);
    QMutexLocker lock(&m_world->m_mutex);
    for (auto it = m_world->m_windowColours.cbegin(); it != m_world->m_windowColours.cend(); ++it) {
        if (m_world->isGone(it.key()))
            continue;
        const QRectF points = m_world->frameOf(it.key()).translated(-display->frame.topLeft());
        painter.fillRect(QRectF(points.topLeft() * display->scale, points.size() * display->scale), it.value());
    }
    return image;
}

QString addConformanceApp(FakeAxWorld& world, qint64 pid)
{
    world.addApp(QStringLiteral("MDH Target App"), QStringLiteral("com.msgcode.mdh-target-app"), pid);
    const QString window = world.addWindow(pid, QStringLiteral("MDH Target App"), QRectF(200, 120, 480, 420));
    world.addElement(window, QStringLiteral("AXStaticText"), QStringLiteral("Message:"), QRectF(210, 160, 80, 24));
    const QString message =
        world.addElement(window, QStringLiteral("AXTextField"), QStringLiteral("Message"), QRectF(300, 160, 360, 24));
    world.addElement(window, QStringLiteral("AXStaticText"), QStringLiteral("Password:"), QRectF(210, 200, 80, 24));
    world.addElement(window, QStringLiteral("AXTextField"), QStringLiteral("Password"), QRectF(300, 200, 360, 24),
                     QStringLiteral("AXSecureTextField"));
    world.addElement(window, QStringLiteral("AXCheckBox"), QStringLiteral("Remember me"), QRectF(210, 240, 200, 24));
    const QString send =
        world.addElement(window, QStringLiteral("AXButton"), QStringLiteral("Send"), QRectF(210, 480, 120, 32));
    const QString status =
        world.addElement(window, QStringLiteral("AXStaticText"), QStringLiteral("Ready"), QRectF(350, 480, 300, 32));
    // Send shows what it sent, as a chat app does.
    world.onAction(send, [message, status](FakeAxWorld& w, const QString&) {
        w.setAttribute(status, QStringLiteral("AXValue"),
                       AxValue::ofString(QStringLiteral("Sent: ") + w.text(message)));
    });
    world.activate(pid);
    return window;
}

namespace {

/// What an AppKit panel of addFilePanel holds and where it is.
struct FilePanel : std::enable_shared_from_this<FilePanel>
{
    qint64 pid = 0;
    bool save = true;
    bool goToIgnored = false;
    QString window;
    QString document;
    QString sheet;
    QString browser;
    QString nameField;
    QString goToSheet;
    QString goToField;
    QString replaceSheet;
    QString folder = QDir::homePath();
    QString selected;

    bool open(const FakeAxWorld& world) const
    {
        return !sheet.isEmpty() && world.attribute(sheet, QStringLiteral("AXRole"));
    }

    void close(FakeAxWorld& world)
    {
        world.remove(sheet);
        sheet.clear();
        goToSheet.clear();
        replaceSheet.clear();
        world.setFocus(document);
    }

    void write(FakeAxWorld& world, const QString& path)
    {
        QFile file(path);
        if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            file.write(world.text(document).toUtf8());
        close(world);
    }

    void defaultButton(FakeAxWorld& world)
    {
        if (!save) {
            QFile file(selected);
            if (selected.isEmpty() || !file.open(QIODevice::ReadOnly))
                return; // Open is disabled with nothing selected
            const QString text = QString::fromUtf8(file.readAll());
            world.setAttribute(document, QStringLiteral("AXValue"), FakeAxWorld::AxValue::ofString(text));
            world.setAttribute(document, QStringLiteral("AXNumberOfCharacters"),
                               FakeAxWorld::AxValue::ofNumber(static_cast<double>(text.size())));
            close(world);
            return;
        }
        const QString name = world.text(nameField);
        if (name.isEmpty() || !replaceSheet.isEmpty())
            return;
        const QString path = QDir(folder).filePath(name);
        if (!QFileInfo::exists(path)) {
            write(world, path);
            return;
        }
        // AppKit asks in a sheet over the panel.
        replaceSheet = world.addElement(sheet, QStringLiteral("AXSheet"), QString(), QRectF(420, 200, 420, 140));
        world.addElement(replaceSheet, QStringLiteral("AXStaticText"),
                         QStringLiteral("“%1” already exists. Do you want to replace it?").arg(name),
                         QRectF(440, 210, 380, 40));
        const QString cancel = world.addElement(replaceSheet, QStringLiteral("AXButton"), QStringLiteral("Cancel"),
                                                QRectF(600, 300, 90, 24));
        const QString replace = world.addElement(replaceSheet, QStringLiteral("AXButton"), QStringLiteral("Replace"),
                                                 QRectF(700, 300, 90, 24));
        world.onAction(cancel, [self = shared_from_this()](FakeAxWorld& w, const QString&) {
            w.remove(self->replaceSheet);
            self->replaceSheet.clear();
        });
        world.onAction(replace,
                       [self = shared_from_this(), path](FakeAxWorld& w, const QString&) { self->write(w, path); });
    }

    bool key(FakeAxWorld& world, QChar typed, quint16 virtualKey, quint64 flags)
    {
        if (!open(world))
            return false;
        const bool command = (flags & Automation::Mac::KeyFlags::Command) != 0;
        const bool shift = (flags & Automation::Mac::KeyFlags::Shift) != 0;
        if (command && shift && typed == QLatin1Char('g')) {
            if (goToIgnored || !goToSheet.isEmpty())
                return true;
            goToSheet = world.addElement(sheet, QStringLiteral("AXSheet"), QString(), QRectF(440, 180, 400, 120));
            world.addElement(goToSheet, QStringLiteral("AXStaticText"), QStringLiteral("Go to the folder:"),
                             QRectF(460, 190, 360, 20));
            goToField =
                world.addElement(goToSheet, QStringLiteral("AXTextField"), QString(), QRectF(460, 215, 360, 24));
            world.addElement(goToSheet, QStringLiteral("AXButton"), QStringLiteral("Go"), QRectF(740, 260, 80, 24));
            world.setFocus(goToField);
            // Meanwhile the browser lists the folder's files: rows with their name cells, fields
            // that are not where a path goes.
            const QString row =
                world.addElement(browser, QStringLiteral("AXRow"), QString(), QRectF(410, 200, 440, 20));
            world.addElement(row, QStringLiteral("AXTextField"), QStringLiteral("notes.txt"),
                             QRectF(420, 200, 300, 20));
            return true;
        }
        if (virtualKey == 0x35) { // Escape: the top sheet closes
            if (!goToSheet.isEmpty()) {
                world.remove(goToSheet);
                goToSheet.clear();
            } else if (!replaceSheet.isEmpty()) {
                world.remove(replaceSheet);
                replaceSheet.clear();
            } else {
                close(world);
            }
            return true;
        }
        if (virtualKey != 0x24 || command)
            return false;
        if (!goToSheet.isEmpty()) {
            const QFileInfo where(world.text(goToField));
            if (where.isDir() || (!save && where.isFile())) {
                folder = where.isDir() ? where.absoluteFilePath() : where.absolutePath();
                selected = where.isFile() ? where.absoluteFilePath() : QString();
                world.remove(goToSheet);
                goToSheet.clear();
                world.setFocus(save ? nameField : sheet);
            } else if (world.find(QStringLiteral("AXStaticText"), QStringLiteral("The folder can’t be found."))
                           .isEmpty()) {
                world.addElement(goToSheet, QStringLiteral("AXStaticText"),
                                 QStringLiteral("The folder can’t be found."), QRectF(460, 240, 360, 20));
            }
            return true;
        }
        defaultButton(world);
        return true;
    }
};

} // namespace

QString addFilePanel(FakeAxWorld& world, qint64 pid, const QString& window, const QString& document, bool save,
                     bool goToIgnored)
{
    auto panel = std::make_shared<FilePanel>();
    panel->pid = pid;
    panel->save = save;
    panel->goToIgnored = goToIgnored;
    panel->window = window;
    panel->document = document;
    panel->sheet = world.addElement(window, QStringLiteral("AXSheet"), QString(), QRectF(400, 150, 460, 420));
    panel->browser = world.addElement(panel->sheet, QStringLiteral("AXBrowser"), QString(), QRectF(410, 200, 440, 250));
    if (save) {
        world.addElement(panel->sheet, QStringLiteral("AXStaticText"), QStringLiteral("Save As:"),
                         QRectF(410, 160, 80, 22));
        panel->nameField =
            world.addElement(panel->sheet, QStringLiteral("AXTextField"), QString(), QRectF(500, 160, 300, 22));
        world.setAttribute(panel->nameField, QStringLiteral("AXIdentifier"),
                           FakeAxWorld::AxValue::ofString(QStringLiteral("saveAsNameTextField")));
        world.setAttribute(panel->nameField, QStringLiteral("AXDescription"),
                           FakeAxWorld::AxValue::ofString(QStringLiteral("Save As:")));
        world.setAttribute(panel->nameField, QStringLiteral("AXValue"),
                           FakeAxWorld::AxValue::ofString(QStringLiteral("Untitled.txt")));
        world.setAttribute(panel->nameField, QStringLiteral("AXNumberOfCharacters"),
                           FakeAxWorld::AxValue::ofNumber(12));
        world.setFocus(panel->nameField);
    }
    const QString cancel =
        world.addElement(panel->sheet, QStringLiteral("AXButton"), QStringLiteral("Cancel"), QRectF(660, 530, 90, 24));
    world.setAttribute(cancel, QStringLiteral("AXIdentifier"),
                       FakeAxWorld::AxValue::ofString(QStringLiteral("CancelButton")));
    const QString ok =
        world.addElement(panel->sheet, QStringLiteral("AXButton"),
                         save ? QStringLiteral("Save") : QStringLiteral("Open"), QRectF(760, 530, 90, 24));
    world.setAttribute(ok, QStringLiteral("AXIdentifier"), FakeAxWorld::AxValue::ofString(QStringLiteral("OKButton")));
    world.onAction(cancel, [panel](FakeAxWorld& w, const QString&) { panel->close(w); });
    world.onAction(ok, [panel](FakeAxWorld& w, const QString&) { panel->defaultButton(w); });
    world.onKey(pid, [panel](FakeAxWorld& w, QChar typed, quint16 virtualKey, quint64 flags) {
        return panel->key(w, typed, virtualKey, flags);
    });
    return panel->sheet;
}

Automation::Mac::AxNotice axNotice(qint64 pid, const QString& app, const QString& notification, const QString& key,
                                   const Automation::Mac::AxKnown& element,
                                   const QList<Automation::Mac::AxKnown>& ancestors, const QString& windowTitle)
{
    return Automation::Mac::AxNotice{.pid = pid,
                                     .appName = app,
                                     .executable = app,
                                     .notification = notification,
                                     .elementKey = key,
                                     .element = element,
                                     .ancestors = ancestors,
                                     .windowTitle = windowTitle};
}

} // namespace Testing
