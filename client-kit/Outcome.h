#pragma once

#include <QJsonObject>
#include <QString>

namespace DoorKit {

/// What a host answer ({result} or {error}) says, read once: whether it failed and how, and for a
/// side effect whether the app showed the effect (docs/protocol.md, "effect"). Each door words it
/// in its own vocabulary; the GUI can read replays and actions through it too.
class Outcome
{
public:
    /// `doneKey` is the result's member that says the action was delivered ("clicked", "typed",
    /// "performed", ...); empty for a method that is not a side effect.
    static Outcome fromAnswer(const QJsonObject& response, const QString& doneKey = {});

    bool failed() const { return m_failed; }
    /// error.{code, message, details} (empty unless failed()).
    const QJsonObject& error() const { return m_error; }
    QString code() const;
    QString message() const;
    QJsonObject details() const;
    /// The answer's result (empty when failed()).
    const QJsonObject& result() const { return m_result; }

    /// result.effect: "verified", "partial", "unverifiable", "suspected_noop", ... (may be empty).
    QString effect() const;
    /// result.verification.reason (may be empty).
    QString verificationReason() const;
    /// Whether result[doneKey] says the action was delivered.
    bool delivered() const;
    /// Not delivered, or delivered with no sign of an effect: not to be reported as done.
    bool showedNoEffect() const;
    bool partial() const { return effect() == QLatin1String("partial"); }
    /// Delivered, and the app gives no way to see the effect: neither an error nor claimed.
    bool unverifiable() const { return effect() == QLatin1String("unverifiable"); }

    /// The members of the result named by `keys` that it has, added to `into`.
    QJsonObject withFacts(QJsonObject into, std::initializer_list<const char*> keys) const;

private:
    bool m_failed = false;
    QJsonObject m_error;
    QJsonObject m_result;
    QString m_doneKey;
};

} // namespace DoorKit
