#include "automation/backends/atspi/AtspiRoles.h"

#include "../../Types.h"

#include <array>

namespace Automation::Atspi {

namespace {

struct Entry
{
    const char* native;
    const char* ax;
    const char* subrole;
};

// Indexed by AtspiRole (at-spi2-core 2.46, 130 roles). Roles with no AX counterpart map to
// AXGroup (containers) or AXUnknown; text-like roles to AXStaticText/AXTextField/AXTextArea.
constexpr std::array<Entry, 130> kRoles{{
    {"invalid", "AXUnknown", ""},
    {"accelerator label", "AXStaticText", ""},
    {"alert", "AXWindow", "AXDialog"},
    {"animation", "AXImage", ""},
    {"arrow", "AXImage", ""},
    {"calendar", "AXGroup", ""},
    {"canvas", "AXGroup", ""},
    {"check box", "AXCheckBox", ""},
    {"check menu item", "AXMenuItem", ""},
    {"color chooser", "AXColorWell", ""},
    {"column header", "AXCell", ""},
    {"combo box", "AXComboBox", ""},
    {"date editor", "AXDateField", ""},
    {"desktop icon", "AXImage", ""},
    {"desktop frame", "AXGroup", ""},
    {"dial", "AXSlider", ""},
    {"dialog", "AXWindow", "AXDialog"},
    {"directory pane", "AXGroup", ""},
    {"drawing area", "AXGroup", ""},
    {"file chooser", "AXGroup", ""},
    {"filler", "AXGroup", ""},
    {"focus traversable", "AXGroup", ""},
    {"font chooser", "AXGroup", ""},
    {"frame", "AXWindow", "AXStandardWindow"},
    {"glass pane", "AXGroup", ""},
    {"html container", "AXWebArea", ""},
    {"icon", "AXImage", ""},
    {"image", "AXImage", ""},
    {"internal frame", "AXGroup", ""},
    {"label", "AXStaticText", ""},
    {"layered pane", "AXGroup", ""},
    {"list", "AXList", ""},
    {"list item", "AXRow", ""},
    {"menu", "AXMenu", ""},
    {"menu bar", "AXMenuBar", ""},
    {"menu item", "AXMenuItem", ""},
    {"option pane", "AXGroup", ""},
    {"page tab", "AXRadioButton", "AXTabButton"},
    {"page tab list", "AXTabGroup", ""},
    {"panel", "AXGroup", ""},
    {"password text", "AXTextField", "AXSecureTextField"},
    {"popup menu", "AXMenu", ""},
    {"progress bar", "AXProgressIndicator", ""},
    {"push button", "AXButton", ""},
    {"radio button", "AXRadioButton", ""},
    {"radio menu item", "AXMenuItem", ""},
    {"root pane", "AXGroup", ""},
    {"row header", "AXCell", ""},
    {"scroll bar", "AXScrollBar", ""},
    {"scroll pane", "AXScrollArea", ""},
    {"separator", "AXSplitter", ""},
    {"slider", "AXSlider", ""},
    {"spin button", "AXIncrementor", ""},
    {"split pane", "AXSplitGroup", ""},
    {"status bar", "AXGroup", ""},
    {"table", "AXTable", ""},
    {"table cell", "AXCell", ""},
    {"table column header", "AXCell", ""},
    {"table row header", "AXCell", ""},
    {"tearoff menu item", "AXMenuItem", ""},
    {"terminal", "AXTextArea", ""},
    {"text", "AXTextField", ""},
    {"toggle button", "AXCheckBox", "AXToggle"},
    {"tool bar", "AXToolbar", ""},
    {"tool tip", "AXHelpTag", ""},
    {"tree", "AXOutline", ""},
    {"tree table", "AXOutline", ""},
    {"unknown", "AXUnknown", ""},
    {"viewport", "AXGroup", ""},
    {"window", "AXWindow", ""},
    {"extended", "AXGroup", ""},
    {"header", "AXGroup", ""},
    {"footer", "AXGroup", ""},
    {"paragraph", "AXGroup", ""}, // a web page's <p>, as AX has it
    {"ruler", "AXRuler", ""},
    {"application", "AXApplication", ""},
    {"autocomplete", "AXComboBox", ""},
    {"editbar", "AXTextField", ""},
    {"embedded", "AXGroup", ""},
    {"entry", "AXTextField", ""},
    {"chart", "AXImage", ""},
    {"caption", "AXStaticText", ""},
    {"document frame", "AXGroup", ""},
    {"heading", "AXHeading", ""},
    {"page", "AXGroup", ""},
    {"section", "AXGroup", ""},
    {"redundant object", "AXUnknown", ""},
    {"form", "AXGroup", ""},
    {"link", "AXLink", ""},
    {"input method window", "AXWindow", ""},
    {"table row", "AXRow", ""},
    {"tree item", "AXRow", ""},
    {"document spreadsheet", "AXGroup", ""},
    {"document presentation", "AXGroup", ""},
    {"document text", "AXTextArea", ""},
    {"document web", "AXWebArea", ""},
    {"document email", "AXGroup", ""},
    {"comment", "AXGroup", ""},
    {"list box", "AXList", ""},
    {"grouping", "AXGroup", ""},
    {"image map", "AXImage", ""},
    {"notification", "AXGroup", ""},
    {"info bar", "AXGroup", ""},
    {"level bar", "AXLevelIndicator", ""},
    {"title bar", "AXGroup", ""},
    {"block quote", "AXGroup", ""},
    {"audio", "AXGroup", ""},
    {"video", "AXGroup", ""},
    {"definition", "AXGroup", ""},
    {"article", "AXGroup", ""},
    {"landmark", "AXGroup", ""},
    {"log", "AXGroup", ""},
    {"marquee", "AXGroup", ""},
    {"math", "AXGroup", ""},
    {"rating", "AXLevelIndicator", ""},
    {"timer", "AXStaticText", ""},
    {"static", "AXStaticText", ""},
    {"math fraction", "AXGroup", ""},
    {"math root", "AXGroup", ""},
    {"subscript", "AXGroup", ""},
    {"superscript", "AXGroup", ""},
    {"description list", "AXList", ""},
    {"description term", "AXStaticText", ""},
    {"description value", "AXStaticText", ""},
    {"footnote", "AXGroup", ""},
    {"content deletion", "AXGroup", ""},
    {"content insertion", "AXGroup", ""},
    {"mark", "AXGroup", ""},
    {"suggestion", "AXGroup", ""},
    {"push button menu", "AXMenuButton", ""},
}};

} // namespace

RoleInfo roleInfo(quint32 atspiRole, bool multiLine)
{
    if (atspiRole >= kRoles.size())
        return RoleInfo{QStringLiteral("unknown"), QStringLiteral("AXUnknown"), QString()};
    const Entry& e = kRoles[atspiRole];
    RoleInfo info{QString::fromLatin1(e.native), QString::fromLatin1(e.ax), QString::fromLatin1(e.subrole)};
    if (multiLine && (atspiRole == kRoleText || atspiRole == 79 /* entry */))
        info.role = QStringLiteral("AXTextArea");
    return info;
}

int atspiRoleFromName(const QString& nativeName)
{
    QString wanted = nativeName.toLower();
    wanted.replace(QLatin1Char('_'), QLatin1Char(' '));
    for (size_t i = 0; i < kRoles.size(); ++i) {
        if (wanted == QLatin1String(kRoles[i].native))
            return static_cast<int>(i);
    }
    return -1;
}

bool isLeafControl(quint32 atspiRole)
{
    switch (atspiRole) {
    case 7:   // check box
    case 29:  // label
    case 40:  // password text
    case 43:  // push button
    case 44:  // radio button
    case 50:  // separator
    case 51:  // slider
    case 52:  // spin button
    case 42:  // progress bar
    case 61:  // text
    case 62:  // toggle button
    case 79:  // entry
    case 116: // static
        return true;
    default:
        return false;
    }
}

quint32 nodeStates(quint32 low, quint32 high, bool secure)
{
    quint32 out = 0;
    const auto map = [&](int atspi, NodeState ours) {
        if (hasState(low, high, atspi))
            out |= ours;
    };
    // AT-SPI has ENABLED and SENSITIVE. GTK 3, Qt and Gecko set both on a usable widget and
    // clear both on a disabled one; GTK 4 sets only SENSITIVE. So SENSITIVE is what counts.
    if (hasState(low, high, StateSensitive))
        out |= Automation::StateEnabled;
    map(StateFocused, Automation::StateFocused);
    map(StateSelected, Automation::StateSelected);
    map(StateChecked, Automation::StateChecked);
    map(StateEditable, Automation::StateEditable);
    map(StateVisible, Automation::StateVisible);
    map(StateShowing, Automation::StateShowing);
    map(StateFocusable, Automation::StateFocusable);
    map(StateActive, Automation::StateActive);
    map(StateModal, Automation::StateModal);
    map(StateExpanded, Automation::StateExpanded);
    if (secure)
        out |= Automation::StateSecure;
    return out;
}

} // namespace Automation::Atspi
