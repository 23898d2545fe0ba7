#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Bridge {

/// What the system says about the code signature of a running process (macOS: Security's
/// SecCode API; docs/macos.md, "Code-signing identity"). Read by pid, so it names the program
/// that has the pid when it is read: the XPC transport reads it at connect time, as the socket
/// reads its peer credentials.
struct CodeSignature
{
    /// The process is signed and its signature holds (SecCodeCheckValidity, no requirement):
    /// the code on disk and in memory is what was signed. An ad-hoc signature can be valid.
    bool signedValid = false;
    /// The Team ID of the signing certificate, set only when the signature is valid and the
    /// certificate chain ends at Apple's anchor with that Team ID as the leaf's OU (Developer ID
    /// and Apple Development certificates). Empty for ad-hoc, self-signed and unsigned code, for
    /// Apple's own binaries and, probably, for Mac App Store signatures (whose leaf is Apple's).
    /// This is what a `team:ABCDE12345` allowlist entry would name.
    QString teamId;
    /// The signing identifier (usually the bundle id), set only when the signature is valid.
    /// Anyone can sign anything with any identifier: alone it proves nothing; with teamId it does.
    QString signingId;
    /// What went wrong, if anything (empty when every check passed): why signedValid is false,
    /// or why a claimed Team ID was dropped.
    QString error;

    /// {signedValid, teamId, signingId} and `error` when there is one, for evidence and audit.
    QJsonObject toJson() const
    {
        QJsonObject out{{QStringLiteral("signedValid"), signedValid},
                        {QStringLiteral("teamId"), teamId},
                        {QStringLiteral("signingId"), signingId}};
        if (!error.isEmpty())
            out.insert(QStringLiteral("error"), error);
        return out;
    }
};

/// The code signature of the process `pid`. nullopt where the platform has no code signatures
/// (every platform but macOS) or `pid` is not a process id; on macOS a process that cannot be
/// found or is unsigned gives a CodeSignature with signedValid false and `error` saying why.
std::optional<CodeSignature> codeSignatureOfPid(qint64 pid);

} // namespace Bridge
