#pragma once

#include <QString>

namespace Automation::Atspi {

/// An AT-SPI role in the AX vocabulary (roles speak AX on every platform, so one selector works everywhere).
struct RoleInfo
{
    QString nativeRole; ///< AT-SPI's own name, e.g. "push button"
    QString role;       ///< e.g. "AXButton"
    QString subrole;    ///< e.g. "AXDialog", "AXSecureTextField"; empty when none
};

/// Maps an AT-SPI role number (AtspiRole) to AX names. `multiLine` picks AXTextArea over
/// AXTextField for the plain "text" role.
RoleInfo roleInfo(quint32 atspiRole, bool multiLine = false);

/// The number of an AT-SPI role given its native name ("push button", "push_button", any case);
/// -1 when unknown.
int atspiRoleFromName(const QString& nativeName);

/// AT-SPI state numbers (AtspiStateType) the host reads.
enum State : int {
    StateActive = 1,
    StateChecked = 4,
    StateDefunct = 6,
    StateEditable = 7,
    StateEnabled = 8,
    StateExpanded = 10,
    StateFocusable = 11,
    StateFocused = 12,
    StateModal = 16,
    StateMultiLine = 17,
    StateSelected = 23,
    StateSensitive = 24,
    StateShowing = 25,
    StateTransient = 28,
    StateVisible = 30,
    StateManagesDescendants = 31,
};

/// Whether bit `state` is set in an AT-SPI state set (two 32-bit words: state N is bit N%32 of word N/32).
inline bool hasState(quint32 low, quint32 high, int state)
{
    return state < 32 ? (low >> state) & 1u : (high >> (state - 32)) & 1u;
}

/// Roles of controls that never hold children of their own (buttons, labels, fields, check
/// boxes...): their empty child list may be trusted where a toolkit sends no ChildrenChanged.
bool isLeafControl(quint32 atspiRole);

/// AT-SPI states -> the host's NodeState bits (see Types.h); `secure` for password text.
quint32 nodeStates(quint32 low, quint32 high, bool secure);

inline constexpr quint32 kRoleApplication = 75;
inline constexpr quint32 kRoleFrame = 23;
inline constexpr quint32 kRoleDialog = 16;
inline constexpr quint32 kRoleWindow = 69;
inline constexpr quint32 kRolePasswordText = 40;
inline constexpr quint32 kRoleText = 61;

} // namespace Automation::Atspi
