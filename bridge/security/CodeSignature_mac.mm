// The code signature of a running process, from Security's SecCode API (docs/macos.md,
// "Code-signing identity"). Compiled with -fobjc-arc: the Core Foundation objects this file gets
// from a Copy or Create function are held by CfOwned or handed to ARC with CFBridgingRelease.
#include "bridge/security/CodeSignature.h"

#import <Foundation/Foundation.h>
#import <Security/Security.h>

#include <climits>

#if !__has_feature(objc_arc)
#error "CodeSignature_mac.mm is compiled with -fobjc-arc (bridge/CMakeLists.txt, scripts/check-macos)"
#endif

namespace Bridge {

namespace {

/// One +1 Core Foundation reference from a Copy or Create function, released when this goes.
template <typename Ref> class CfOwned
{
public:
    CfOwned() = default;
    ~CfOwned()
    {
        if (m_ref)
            CFRelease(m_ref);
    }
    CfOwned(const CfOwned&) = delete;
    CfOwned& operator=(const CfOwned&) = delete;

    Ref get() const { return m_ref; }
    /// For a Copy or Create function's out-parameter; only while nothing is held.
    Ref* out() { return &m_ref; }

private:
    Ref m_ref = nullptr;
};

QString describe(const char* call, OSStatus status)
{
    NSString* message = CFBridgingRelease(SecCopyErrorMessageString(status, nullptr));
    return QStringLiteral("%1: %2 (OSStatus %3)")
        .arg(QString::fromLatin1(call), message ? QString::fromNSString(message) : QStringLiteral("unknown error"))
        .arg(status);
}

/// A Team ID is ten upper-case letters and digits; anything else is not put into a requirement.
bool isTeamId(const QString& text)
{
    if (text.size() != 10)
        return false;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if (!((u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')))
            return false;
    }
    return true;
}

/// The string under `key` in a signing-information dictionary; empty when absent or not a string.
QString stringIn(NSDictionary* info, CFStringRef key)
{
    id value = info[(__bridge NSString*)key];
    return [value isKindOfClass:[NSString class]] ? QString::fromNSString(static_cast<NSString*>(value)) : QString();
}

/// Whether `code` was signed by a certificate that Apple issued to `teamId`. The Team ID in the
/// signing information is whatever the signer wrote there; only a chain that ends at Apple's
/// anchor, with the Team ID as the leaf's OU, makes it Apple's word.
OSStatus checkTeam(SecCodeRef code, const QString& teamId)
{
    const QString text = QStringLiteral("anchor apple generic and certificate leaf[subject.OU] = \"%1\"").arg(teamId);
    CfOwned<SecRequirementRef> requirement;
    const OSStatus status =
        SecRequirementCreateWithString((__bridge CFStringRef)text.toNSString(), kSecCSDefaultFlags, requirement.out());
    if (status != errSecSuccess)
        return status;
    return SecCodeCheckValidity(code, kSecCSDefaultFlags, requirement.get());
}

} // namespace

std::optional<CodeSignature> codeSignatureOfPid(qint64 pid)
{
    if (pid <= 0 || pid > INT_MAX)
        return std::nullopt;
    @autoreleasepool {
        CodeSignature out;
        NSDictionary* attributes = @{(__bridge NSString*)kSecGuestAttributePid : @(static_cast<int>(pid))};
        CfOwned<SecCodeRef> code;
        OSStatus status = SecCodeCopyGuestWithAttributes(nullptr, (__bridge CFDictionaryRef)attributes,
                                                         kSecCSDefaultFlags, code.out());
        if (status != errSecSuccess || !code.get()) {
            out.error = describe("SecCodeCopyGuestWithAttributes", status);
            return out;
        }
        // No requirement: the signature is intact and matches the code (unsigned code fails here
        // with errSecCSUnsigned).
        status = SecCodeCheckValidity(code.get(), kSecCSDefaultFlags, nullptr);
        if (status != errSecSuccess) {
            out.error = describe("SecCodeCheckValidity", status);
            return out;
        }
        CFDictionaryRef rawInfo = nullptr;
        // A SecCodeRef is also a SecStaticCodeRef (the code of the running process).
        status = SecCodeCopySigningInformation(code.get(), kSecCSSigningInformation, &rawInfo);
        NSDictionary* info = CFBridgingRelease(rawInfo);
        if (status != errSecSuccess || !info) {
            out.error = describe("SecCodeCopySigningInformation", status);
            return out;
        }
        out.signedValid = true;
        out.signingId = stringIn(info, kSecCodeInfoIdentifier);
        const QString claimedTeam = stringIn(info, kSecCodeInfoTeamIdentifier);
        if (claimedTeam.isEmpty())
            return out;
        if (!isTeamId(claimedTeam)) {
            out.error = QStringLiteral("the Team ID \"%1\" is not ten letters and digits; ignored").arg(claimedTeam);
            return out;
        }
        status = checkTeam(code.get(), claimedTeam);
        if (status != errSecSuccess) {
            out.error = QStringLiteral("the Team ID %1 is not backed by a certificate Apple issued to it; ignored (%2)")
                            .arg(claimedTeam, describe("SecCodeCheckValidity", status));
            return out;
        }
        out.teamId = claimedTeam;
        return out;
    }
}

} // namespace Bridge
