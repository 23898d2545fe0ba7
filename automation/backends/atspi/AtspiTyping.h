#pragma once

#include "automation/backends/atspi/AtspiInput.h"
#include "automation/backends/atspi/AtspiVerifier.h"

#include <QElapsedTimer>

namespace Automation {

/// One AtspiInput::typeText into an accessible window: the typing ladder's steps, one method
/// each. Focus the target, read what the field holds, choose the paths (TypingLadder), deliver
/// by each path until one is confirmed (restoring the field between paths), then judge: by the
/// field's read-back, its length (a secure field), or what the app reported (no target).
/// Used once: construct, then run().
class AtspiTyping
{
public:
    AtspiTyping(AtspiInput& input, const ResolvedRoute& route, const Node* target, const QString& text,
                const TypeOptions& options, const CallContext& context);
    AtspiTyping(const AtspiTyping&) = delete;
    AtspiTyping& operator=(const AtspiTyping&) = delete;

    Result<TypeOutcome> run();

private:
    /// The target's interfaces (Text, EditableText), then Component.GrabFocus.
    std::optional<Error> focusTarget();
    /// What the field holds now, where the caret is, and what it should hold afterwards.
    std::optional<Error> readField();
    /// Without a target, the paste chord depends on what has focus: the app's last focus report
    /// tells whether it is a terminal or a secure field.
    void learnFocused();
    /// The paths to try, best first (TypingLadder::paths, narrowed by options.delivery).
    Result<QStringList> choosePaths();
    /// Tries each path until one is confirmed or cannot be verified; sets m_effect.
    std::optional<Error> climb(const QStringList& ladder);
    Result<Effect> deliverByEditableText(QJsonObject* observed, QJsonObject* details);
    Result<Effect> deliverByClipboard(QJsonObject* observed, QJsonObject* details);
    Result<Effect> deliverByKeys(QJsonObject* observed);
    /// What the verification expected, for a field that could be read back (or its length).
    void describeReadBack();
    /// No field to read: what the app itself reported after the input decides m_effect.
    void judgeByAppReports();
    /// The window that took the focus, the verification's time and reasons.
    void finish();

    bool readText(QString* out, int timeoutMs = -1);
    int readCount(int timeoutMs = -1);
    /// Verifies the field after one delivery path: polls until it holds the expected text, or
    /// until it stops changing, within `budgetMs`.
    Effect verifyField(int budgetMs, QJsonObject* observed);
    /// Puts the field back as it was before a path that did not deliver, so the next one does
    /// not double the text. False when that cannot be done (the ladder then stops).
    bool restore();
    void placeCaret();
    std::optional<Error> clearByKeys();

    AtspiInput& m_input;
    const ResolvedRoute& m_route;
    const Node* m_target;
    const QString& m_text;
    const TypeOptions& m_options;
    const CallContext& m_context;

    quint64 m_activeBefore = 0;
    Atspi::App m_app;
    bool m_secure = false;
    bool m_terminal = false;
    TypeOutcome m_outcome;
    Verification& m_v;
    QElapsedTimer m_verifyTimer;
    qint64 m_verifyMs = 0;

    Atspi::Ref m_ref;
    bool m_hasText = false;
    bool m_hasEditable = false;
    bool m_canRead = false;
    QString m_before;
    bool m_haveBefore = false;
    int m_countBefore = -1;
    int m_caret = -1;
    bool m_utf16 = false;
    QString m_expected;
    int m_insertOffset = 0;
    int m_expectedCount = -1;
    QString m_lastRead;
    Effect m_lastEffect = Effect::SuspectedNoop;
    std::optional<AtspiVerifier::Baseline> m_noTargetBaseline;
    bool m_pasteKnown = false;
    Effect m_effect = Effect::SuspectedNoop;
};

} // namespace Automation
