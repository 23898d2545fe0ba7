#pragma once

#include <QHash>
#include <QString>

/// The docs' tables that come from the declarations, each between the markers
/// `<!-- generated:NAME -->` and `<!-- end generated:NAME -->` (mdh-contract-gen writes and
/// checks them).
namespace Contract::DocTables {

/// README.md: every method, what it does, whether it needs confirm, its schema.
/// `anchors`: docs/protocol.md's section number -> its heading's link anchor.
QString readmeMethods(const QHash<QString, QString>& anchors);
/// The section number -> anchor map of a markdown text's `### N.M title` headings.
QHash<QString, QString> sectionAnchors(const QString& markdown);
/// docs/protocol.md §5: kind, workspace, confirm, section.
QString protocolMethods();
/// docs/architecture.md "Where does X live?": each method's declaration, handler and engine.
QString architectureMethods();

/// `text` with the region NAME replaced by `body`; nullopt-like empty string when the markers are missing.
QString replaceRegion(const QString& text, const QString& name, const QString& body, bool* found);

} // namespace Contract::DocTables
