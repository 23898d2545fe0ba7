// End to end: text read off the pixels (desktop.ocr, Tesseract) where accessibility is blind, and
// acted on. A Tk window (no accessibility on Linux) is filled in and submitted by what its pixels
// say: the entry is clicked right of its OCR-found label, typed into, and the OCR-found button
// pressed; a canvas's drawn text is found and clicked. Every effect is read in the Tk window's own
// output. On the Qt fixture, OCR boxes of its labels (Latin and Chinese) lie on the frames AT-SPI
// gives the same labels; a window stacked above the route's is left out of what is read.
#include "RealAppSupport.h"

#include <QJsonArray>
#include <QProcess>
#include <QRect>
#include <QThread>

using namespace Qt::StringLiterals;
using namespace Testing;

namespace {

const QString kChineseLabel = u"确定保存设置"_s;

QRect rectOf(const QJsonObject& frame)
{
    return QRect(frame.value(u"x"_s).toInt(), frame.value(u"y"_s).toInt(), frame.value(u"width"_s).toInt(),
                 frame.value(u"height"_s).toInt());
}

QString squeezed(QString text)
{
    text.remove(u' ');
    return text;
}

// The first line of an OCR answer whose text contains `text` (spaces ignored, case folded); an
// empty object when none does.
QJsonObject lineWith(const QJsonObject& answer, const QString& text)
{
    for (const auto& line : answer.value(u"result"_s).toObject().value(u"lines"_s).toArray()) {
        if (squeezed(line.toObject().value(u"text"_s).toString()).contains(squeezed(text), Qt::CaseInsensitive))
            return line.toObject();
    }
    return {};
}

QString allText(const QJsonObject& answer)
{
    QStringList lines;
    for (const auto& line : answer.value(u"result"_s).toObject().value(u"lines"_s).toArray())
        lines.append(line.toObject().value(u"text"_s).toString());
    return lines.join(u" | "_s);
}

class RealAppOcr : public RealAppTest<RealAppOcr>
{
protected:
    static void SetUpTestSuite()
    {
        QString why;
        if (!DesktopSession::available(&why))
            return;
        s_app = new RealAppSession;
        ProbeQuery ready;
        ready.role = u"push button"_s;
        ready.name = u"Send"_s;
        s_app->start(DesktopSession::fixtureBinary(), {u"--title"_s, u"OCR fixture"_s, u"--label"_s, kChineseLabel},
                     ready);
    }

    void TearDown() override
    {
        if (m_tk.state() != QProcess::NotRunning) {
            m_tk.kill();
            m_tk.waitForFinished(3000);
        }
    }

    // The Tk window of tk_ocr.tcl, in front.
    void startTk()
    {
        m_tk.setProcessChannelMode(QProcess::SeparateChannels);
        m_tk.start(u"wish"_s, {QStringLiteral(MDH_E2E_DATA_DIR) + u"/tk_ocr.tcl"_s});
        ASSERT_TRUE(m_tk.waitForStarted(5000));
        QDeadlineTimer until(15000);
        while (!m_output.contains("ready") && !until.hasExpired()) {
            m_tk.waitForReadyRead(200);
            m_output += m_tk.readAllStandardOutput();
        }
        ASSERT_TRUE(m_output.contains("ready")) << "wish did not show its window";
        const CommandResult found = runCommand(u"xdotool"_s, {u"search"_s, u"--name"_s, u"^Tk OCR$"_s});
        const QString window = found.out.split(u'\n', Qt::SkipEmptyParts).value(0).trimmed();
        ASSERT_FALSE(window.isEmpty()) << "xdotool finds no Tk window";
        runCommand(u"xdotool"_s, {u"windowactivate"_s, u"--sync"_s, window});
    }

    // What the Tk window printed with `prefix` last, waiting up to `ms` for it.
    QString tkSaid(const QByteArray& prefix, int ms = 3000)
    {
        QDeadlineTimer until(ms);
        while (true) {
            m_tk.waitForReadyRead(100);
            m_output += m_tk.readAllStandardOutput();
            QString said;
            for (const QByteArray& line : m_output.split('\n')) {
                if (line.startsWith(prefix))
                    said = QString::fromUtf8(line.mid(prefix.size()));
            }
            if (!said.isEmpty() || until.hasExpired())
                return said;
        }
    }

    static QJsonObject tkRoute() { return {{u"window"_s, QJsonObject{{u"titlePattern"_s, u"^Tk OCR$"_s}}}}; }

    static QJsonObject ocr(const QJsonObject& params)
    {
        QJsonObject p = params;
        p.insert(u"redactionMode"_s, u"none"_s);
        return s_app->call(u"desktop.ocr"_s, p, false, 30000);
    }

    static QJsonObject clickAt(QPoint point)
    {
        return s_app->call(u"desktop.pointer"_s,
                           {{u"route"_s, tkRoute()},
                            {u"gesture"_s, u"click"_s},
                            {u"point"_s, QJsonObject{{u"x"_s, point.x()}, {u"y"_s, point.y()}}}},
                           true);
    }

    QProcess m_tk;
    QByteArray m_output;
};

} // namespace

// The whole form, by its pixels alone: the entry right of "Your name:", text typed into it, then
// "Greet" pressed. The Tk window prints what it got.
TEST_F(RealAppOcr, ATkFormIsFilledInAndSubmittedByWhatItsPixelsSay)
{
    startTk();
    ASSERT_FALSE(HasFatalFailure());
    const QJsonObject read = ocr({{u"route"_s, tkRoute()}, {u"languages"_s, QJsonArray{u"eng"_s}}});
    ASSERT_TRUE(read.contains(u"result"_s)) << dump(read);
    const QJsonObject result = read.value(u"result"_s).toObject();
    EXPECT_EQ(result.value(u"capture"_s).toObject().value(u"source"_s).toString(), u"window"_s) << dump(read);
    EXPECT_EQ(result.value(u"engine"_s).toObject().value(u"name"_s).toString(), u"tesseract"_s);
    EXPECT_EQ(result.value(u"capture"_s).toObject().value(u"secureFields"_s).toObject().value(u"check"_s).toString(),
              u"no_accessibility"_s);

    const QJsonObject label = lineWith(read, u"Your name:"_s);
    ASSERT_FALSE(label.isEmpty()) << "no OCR line says 'Your name:': " << allText(read).toStdString();
    const QRect labelBox = rectOf(label.value(u"frame"_s).toObject());
    // The entry is right of its label, as a person sees it.
    const QJsonObject entryClick = clickAt(QPoint(labelBox.right() + 80, labelBox.center().y()));
    ASSERT_TRUE(entryClick.contains(u"result"_s)) << dump(entryClick);
    const QJsonObject typed =
        s_app->call(u"desktop.typeText"_s, {{u"route"_s, tkRoute()}, {u"text"_s, u"Ada"_s}}, true, 15000);
    ASSERT_TRUE(typed.contains(u"result"_s)) << dump(typed);
    EXPECT_EQ(tkSaid("text:"), u"Ada"_s) << "the Tk entry did not get the text";

    const QJsonObject again = ocr({{u"route"_s, tkRoute()}, {u"languages"_s, QJsonArray{u"eng"_s}}});
    const QJsonObject button = lineWith(again, u"Greet"_s);
    ASSERT_FALSE(button.isEmpty()) << "no OCR line says 'Greet': " << allText(again).toStdString();
    // The text typed is on screen too, read back by OCR.
    EXPECT_FALSE(lineWith(again, u"Ada"_s).isEmpty()) << allText(again).toStdString();
    const QJsonObject pressed = clickAt(rectOf(button.value(u"frame"_s).toObject()).center());
    ASSERT_TRUE(pressed.contains(u"result"_s)) << dump(pressed);
    EXPECT_EQ(tkSaid("greeted:"), u"Ada"_s) << "the Tk button was not pressed";

    // The greeting the press shows is waited for on screen, by its pixels; a text that never
    // shows is a timeout.
    const QJsonObject shown = s_app->call(
        u"desktop.waitUntil"_s,
        {{u"condition"_s,
          QJsonObject{{u"textOnScreen"_s, QJsonObject{{u"text"_s, u"Hello, Ada!"_s}, {u"route"_s, tkRoute()}}}}},
         {u"timeoutMs"_s, 8000}},
        false, 15000);
    ASSERT_TRUE(shown.contains(u"result"_s)) << dump(shown);
    EXPECT_TRUE(shown.value(u"result"_s).toObject().value(u"ok"_s).toBool()) << dump(shown);
    const QJsonObject never = s_app->call(
        u"desktop.waitUntil"_s,
        {{u"condition"_s,
          QJsonObject{{u"textOnScreen"_s, QJsonObject{{u"text"_s, u"Goodbye, Ada"_s}, {u"route"_s, tkRoute()}}}}},
         {u"timeoutMs"_s, 1500}},
        false, 15000);
    EXPECT_EQ(errorOf(never).value(u"code"_s).toString(), u"DESKTOP_TIMEOUT"_s) << dump(never);
}

// Drawn text on a canvas, which no toolkit names, is found and clicked.
TEST_F(RealAppOcr, DrawnTextOnACanvasIsFoundAndClicked)
{
    startTk();
    ASSERT_FALSE(HasFatalFailure());
    const QJsonObject read = ocr({{u"route"_s, tkRoute()}, {u"languages"_s, QJsonArray{u"eng"_s}}});
    const QJsonObject drawn = lineWith(read, u"Launch rocket"_s);
    ASSERT_FALSE(drawn.isEmpty()) << "no OCR line says 'Launch rocket': " << allText(read).toStdString();
    EXPECT_GT(drawn.value(u"confidence"_s).toDouble(), 0.5) << dump(read);
    const QJsonObject clicked = clickAt(rectOf(drawn.value(u"frame"_s).toObject()).center());
    ASSERT_TRUE(clicked.contains(u"result"_s)) << dump(clicked);
    EXPECT_EQ(tkSaid("canvas:"), u"Launch rocket"_s) << "the canvas text was not clicked";
}

// On an accessible window the pixels and the tree agree: the OCR box of each label lies on the
// frame AT-SPI gives it, for Latin and for Chinese text.
TEST_F(RealAppOcr, OcrBoxesOfTheFixturesLabelsLieOnTheirAccessibleFrames)
{
    const QJsonObject read = ocr({{u"route"_s, s_app->route()}});
    ASSERT_TRUE(read.contains(u"result"_s)) << dump(read);
    EXPECT_EQ(read.value(u"result"_s)
                  .toObject()
                  .value(u"capture"_s)
                  .toObject()
                  .value(u"secureFields"_s)
                  .toObject()
                  .value(u"check"_s)
                  .toString(),
              u"tree"_s);
    for (const QString& text : {u"Message:"_s, kChineseLabel}) {
        const QJsonObject found = s_app->find(QJsonObject{{u"byRole"_s, u"AXStaticText"_s}, {u"titleEquals"_s, text}});
        const QJsonArray refs = found.value(u"result"_s).toObject().value(u"elementRefs"_s).toArray();
        ASSERT_EQ(refs.size(), 1) << text.toStdString() << ": " << dump(found);
        const QRect accessible = rectOf(refs.first().toObject().value(u"frame"_s).toObject());
        const QJsonObject line = lineWith(read, text);
        ASSERT_FALSE(line.isEmpty()) << "no OCR line says " << text.toStdString() << ": "
                                     << allText(read).toStdString();
        const QRect seen = rectOf(line.value(u"frame"_s).toObject());
        EXPECT_TRUE(accessible.intersects(seen) && accessible.adjusted(-4, -4, 4, 4).contains(seen.center()))
            << text.toStdString() << ": OCR box (" << seen.x() << "," << seen.y() << " " << seen.width() << "x"
            << seen.height() << ") vs accessible frame (" << accessible.x() << "," << accessible.y() << " "
            << accessible.width() << "x" << accessible.height() << ")";
    }
}

// A window stacked above the route's is blanked before recognition: its words are not answered
// as the Tk window's, and the answer says what was left out. The same spot read as a rect (no
// route) does show them, so they are legible.
TEST_F(RealAppOcr, AnotherWindowAboveTheRoutesIsLeftOut)
{
    startTk();
    ASSERT_FALSE(HasFatalFailure());
    CoverWindow cover(s_app->environment(), QRect(100, 230, 300, 80), u"Covering words"_s);
    ASSERT_TRUE(cover.shown());
    const QJsonObject before = s_app->call(u"desktop.windows"_s, {});
    const QJsonObject read = ocr({{u"route"_s, tkRoute()}, {u"languages"_s, QJsonArray{u"eng"_s}}});
    ASSERT_TRUE(read.contains(u"result"_s)) << dump(read);
    const QJsonObject capture = read.value(u"result"_s).toObject().value(u"capture"_s).toObject();
    EXPECT_EQ(capture.value(u"occlusion"_s).toString(), u"masked"_s) << dump(read);
    EXPECT_FALSE(capture.value(u"covered"_s).toArray().isEmpty()) << dump(read);
    EXPECT_TRUE(lineWith(read, u"Covering"_s).isEmpty()) << allText(read).toStdString() << "\n"
                                                         << dump(capture) << "\n"
                                                         << dump(before);

    const QJsonObject plain =
        ocr({{u"rect"_s, QJsonObject{{u"x"_s, 60}, {u"y"_s, 200}, {u"width"_s, 440}, {u"height"_s, 140}}},
             {u"languages"_s, QJsonArray{u"eng"_s}}});
    EXPECT_FALSE(lineWith(plain, u"Covering"_s).isEmpty()) << allText(plain).toStdString();
}

// A selector with source "ocr" finds the Tk button by its pixels; its elementRef is clicked once
// through the pointer (the effect read in the pixels: the greeting appears) and refused after
// that (one action per capture); a fresh ref is refused once the window moved, and nothing
// reaches the app.
TEST_F(RealAppOcr, AnOcrElementIsClickedOnceAndRefusedAfterItsWindowMoved)
{
    startTk();
    ASSERT_FALSE(HasFatalFailure());
    const QJsonObject selector{{u"titleEquals"_s, u"Greet"_s}, {u"source"_s, u"ocr"_s}};
    const QJsonObject found = s_app->call(u"desktop.find"_s, {{u"route"_s, tkRoute()}, {u"selector"_s, selector}});
    const QJsonArray refs = found.value(u"result"_s).toObject().value(u"elementRefs"_s).toArray();
    ASSERT_FALSE(refs.isEmpty()) << dump(found);
    const QJsonObject ref = refs.first().toObject();
    EXPECT_EQ(ref.value(u"source"_s).toString(), u"ocr"_s) << dump(ref);
    EXPECT_EQ(ref.value(u"role"_s).toString(), u"AXStaticText"_s);
    EXPECT_TRUE(ref.value(u"elementId"_s).toString().startsWith(u"ocr:"_s));

    const auto click = [&](const QJsonObject& r) {
        return s_app->call(u"desktop.click"_s,
                           {{u"route"_s, tkRoute()}, {u"target"_s, QJsonObject{{u"elementRef"_s, r}}}}, true);
    };
    const QJsonObject clicked = click(ref);
    ASSERT_TRUE(clicked.contains(u"result"_s)) << dump(clicked);
    EXPECT_EQ(clicked.value(u"result"_s).toObject().value(u"effect"_s).toString(), u"confirmed"_s) << dump(clicked);
    m_tk.waitForReadyRead(2000);
    m_output += m_tk.readAllStandardOutput();
    EXPECT_TRUE(m_output.contains("greeted:")) << "the Tk button was not pressed";

    const QJsonObject again = click(ref);
    EXPECT_EQ(errorOf(again).value(u"code"_s).toString(), u"DESKTOP_STALE_SNAPSHOT"_s) << dump(again);
    EXPECT_EQ(errorOf(again).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"capture_used"_s);

    const QJsonObject fresh = s_app->call(u"desktop.find"_s, {{u"route"_s, tkRoute()}, {u"selector"_s, selector}});
    const QJsonArray freshRefs = fresh.value(u"result"_s).toObject().value(u"elementRefs"_s).toArray();
    ASSERT_FALSE(freshRefs.isEmpty()) << dump(fresh);
    const CommandResult window = runCommand(u"xdotool"_s, {u"search"_s, u"--name"_s, u"^Tk OCR$"_s});
    runCommand(u"xdotool"_s,
               {u"windowmove"_s, u"--sync"_s, window.out.split(u'\n').value(0).trimmed(), u"300"_s, u"400"_s});
    const int greetingsBefore = static_cast<int>(m_output.count("greeted:"));
    const QJsonObject moved = click(freshRefs.first().toObject());
    EXPECT_EQ(errorOf(moved).value(u"code"_s).toString(), u"DESKTOP_STALE_SNAPSHOT"_s) << dump(moved);
    EXPECT_EQ(errorOf(moved).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"window_moved"_s);
    m_tk.waitForReadyRead(500);
    m_output += m_tk.readAllStandardOutput();
    EXPECT_EQ(m_output.count("greeted:"), greetingsBefore) << "a stale click reached the app";
}

// Text aimed at what OCR reads: the selector a person would write ("the field that says Paris",
// source "ocr") puts the caret after that text with a pointer click and types there; the Tk
// entry itself says what it holds, and the answer's effect comes from the pixels read again.
// clearBefore is refused there, before anything is sent: the field's text cannot be read.
TEST_F(RealAppOcr, TextIsTypedAfterTheTextOcrFoundInAField)
{
    startTk();
    ASSERT_FALSE(HasFatalFailure());
    const QJsonObject target{{u"selector"_s, QJsonObject{{u"titleEquals"_s, u"Paris"_s}, {u"source"_s, u"ocr"_s}}}};
    const QJsonObject refused = s_app->call(u"desktop.typeText"_s,
                                            {{u"route"_s, tkRoute()},
                                             {u"target"_s, target},
                                             {u"text"_s, u" Texas"_s},
                                             {u"options"_s, QJsonObject{{u"clearBefore"_s, true}}}},
                                            true, 30000);
    EXPECT_EQ(errorOf(refused).value(u"code"_s).toString(), u"DESKTOP_INVALID_REQUEST"_s) << dump(refused);
    EXPECT_EQ(errorOf(refused).value(u"details"_s).toObject().value(u"reason"_s).toString(), u"ocr_target"_s)
        << dump(refused);

    const QJsonObject typed = s_app->call(
        u"desktop.typeText"_s, {{u"route"_s, tkRoute()}, {u"target"_s, target}, {u"text"_s, u" Texas"_s}}, true, 30000);
    ASSERT_TRUE(typed.contains(u"result"_s)) << dump(typed);
    EXPECT_EQ(tkSaid("city:"), u"Paris Texas"_s) << "the Tk entry did not get the text after its own";
    const QJsonObject result = typed.value(u"result"_s).toObject();
    EXPECT_EQ(result.value(u"target"_s).toObject().value(u"source"_s).toString(), u"ocr"_s) << dump(typed);
    EXPECT_EQ(result.value(u"path"_s).toString(), u"keys"_s);
    EXPECT_EQ(result.value(u"effect"_s).toString(), u"confirmed"_s) << dump(typed);
    EXPECT_FALSE(result.value(u"verification"_s)
                     .toObject()
                     .value(u"observed"_s)
                     .toObject()
                     .value(u"textAppeared"_s)
                     .toArray()
                     .isEmpty())
        << dump(typed);
}

// An image waited for on screen: a template cut from a capture of the Tk window's Greet button
// (kept in the workspace, as a caller keeps one) is found where the button is; noise is not
// found before the timeout; a path outside the workspace is refused before anything is waited.
TEST_F(RealAppOcr, AnImageOfTheWindowIsWaitedForOnScreen)
{
    startTk();
    ASSERT_FALSE(HasFatalFailure());
    const QJsonObject read = ocr({{u"route"_s, tkRoute()}, {u"languages"_s, QJsonArray{u"eng"_s}}});
    const QJsonObject button = lineWith(read, u"Greet"_s);
    ASSERT_FALSE(button.isEmpty()) << allText(read).toStdString();
    const QRect box = rectOf(button.value(u"frame"_s).toObject()).adjusted(-6, -4, 6, 4);
    const QJsonObject shot = s_app->call(
        u"desktop.capture"_s,
        {{u"rect"_s,
          QJsonObject{{u"x"_s, box.x()}, {u"y"_s, box.y()}, {u"width"_s, box.width()}, {u"height"_s, box.height()}}},
         {u"inline"_s, true}});
    QImage piece;
    ASSERT_TRUE(
        piece.loadFromData(QByteArray::fromBase64(resultOf(shot).value(u"pngBase64"_s).toString().toLatin1()), "PNG"))
        << dump(shot);
    const QString workspace = s_app->desktop().workspace();
    ASSERT_TRUE(piece.save(workspace + u"/greet.png"_s));
    const auto wait = [&](const QJsonObject& image, int timeoutMs) {
        return s_app->call(u"desktop.waitUntil"_s,
                           {{u"condition"_s, QJsonObject{{u"imageOnScreen"_s, image}}}, {u"timeoutMs"_s, timeoutMs}},
                           false, 15000);
    };
    const QJsonObject seen = wait({{u"path"_s, u"greet.png"_s}, {u"route"_s, tkRoute()}}, 5000);
    ASSERT_TRUE(seen.contains(u"result"_s)) << dump(seen);
    const QJsonObject state = resultOf(seen).value(u"conditions"_s).toObject();
    const QRect found = rectOf(state.value(u"found"_s).toObject().value(u"frame"_s).toObject());
    EXPECT_EQ(found, box) << dump(seen);

    QImage noise(box.size(), QImage::Format_RGB32);
    quint32 n = 11;
    for (int y = 0; y < noise.height(); ++y) {
        for (int x = 0; x < noise.width(); ++x) {
            n = n * 22695477U + 1U;
            noise.setPixel(
                x, y,
                qRgb(static_cast<int>(n >> 24), static_cast<int>((n >> 16) & 255U), static_cast<int>((n >> 8) & 255U)));
        }
    }
    ASSERT_TRUE(noise.save(workspace + u"/noise.png"_s));
    const QJsonObject never = wait({{u"path"_s, u"noise.png"_s}, {u"route"_s, tkRoute()}}, 1200);
    EXPECT_EQ(errorOf(never).value(u"code"_s).toString(), u"DESKTOP_TIMEOUT"_s) << dump(never);

    const QJsonObject outside = wait({{u"path"_s, u"../../etc/hostname"_s}}, 1000);
    EXPECT_EQ(errorOf(outside).value(u"code"_s).toString(), u"DESKTOP_INVALID_REQUEST"_s) << dump(outside);
    EXPECT_EQ(errorOf(outside).value(u"details"_s).toObject().value(u"reason"_s).toString(),
              u"template_outside_workspace"_s);
}

// An Athena app (xcalc: no accessibility at all, and a title only in ICCCM's WM_NAME, which the
// window list now reads): its keys 4, 2 found by OCR and pressed, each press confirmed by the
// display's text changing, and the display read back by OCR. (Its lone operator keys, "*" and
// "=", are not read by Tesseract at all, even at no confidence bar: the "7 × 6 =" waits
// for that.)
TEST_F(RealAppOcr, XcalcKeysArePressedAndItsDisplayReadByItsPixels)
{
    QProcess xcalc;
    xcalc.start(u"xcalc"_s, {u"-geometry"_s, u"300x420+700+100"_s});
    ASSERT_TRUE(xcalc.waitForStarted(5000));
    const QJsonObject route{{u"window"_s, QJsonObject{{u"titlePattern"_s, u"^Calculator$"_s}}}};
    QJsonObject read;
    QDeadlineTimer until(10000);
    do {
        QThread::msleep(300);
        read = ocr({{u"route"_s, route}, {u"languages"_s, QJsonArray{u"eng"_s}}});
    } while (!read.contains(u"result"_s) && !until.hasExpired());
    ASSERT_TRUE(read.contains(u"result"_s)) << dump(read);
    const QRect window =
        rectOf(read.value(u"result"_s).toObject().value(u"capture"_s).toObject().value(u"frame"_s).toObject());
    for (const QString& key : {u"4"_s, u"2"_s}) {
        const QJsonObject found = s_app->call(
            u"desktop.find"_s,
            {{u"route"_s, route}, {u"selector"_s, QJsonObject{{u"titleEquals"_s, key}, {u"source"_s, u"ocr"_s}}}});
        QJsonArray refs = found.value(u"result"_s).toObject().value(u"elementRefs"_s).toArray();
        // The key, not the display's digit: the keypad is the window's lower part.
        QJsonObject keyRef;
        for (const auto& r : refs) {
            if (rectOf(r.toObject().value(u"frame"_s).toObject()).center().y() > window.top() + 120)
                keyRef = r.toObject();
        }
        ASSERT_FALSE(keyRef.isEmpty()) << key.toStdString() << ": " << dump(found);
        const QJsonObject pressed = s_app->call(
            u"desktop.click"_s, {{u"route"_s, route}, {u"target"_s, QJsonObject{{u"elementRef"_s, keyRef}}}}, true);
        ASSERT_TRUE(pressed.contains(u"result"_s)) << key.toStdString() << ": " << dump(pressed);
        // The display changed: text appeared on screen.
        EXPECT_EQ(pressed.value(u"result"_s).toObject().value(u"effect"_s).toString(), u"confirmed"_s) << dump(pressed);
    }
    const QJsonObject display =
        ocr({{u"rect"_s,
              QJsonObject{{u"x"_s, window.x()}, {u"y"_s, window.y()}, {u"width"_s, window.width()}, {u"height"_s, 80}}},
             {u"languages"_s, QJsonArray{u"eng"_s}}});
    // It no longer shows 0 and ends in the 2 pressed last. (Its bitmap font's 4 reads as "A" to
    // Tesseract: the whole "42" is not asserted; the closing note says so.)
    const QJsonArray lines = display.value(u"result"_s).toObject().value(u"lines"_s).toArray();
    ASSERT_FALSE(lines.isEmpty()) << dump(display);
    const QString shown = lines.first().toObject().value(u"text"_s).toString();
    EXPECT_TRUE(shown.size() == 2 && shown.endsWith(u'2')) << shown.toStdString();
    xcalc.kill();
    xcalc.waitForFinished(3000);
}
