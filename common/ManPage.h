#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

/// A manual page (troff, man(7)) written from the same option table as --help, so the two cannot
/// drift: `--help-man` prints it, and the build writes the installed pages with it.
namespace ManPage {

inline QString escaped(QString text)
{
    text.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    text.replace(QLatin1Char('-'), QStringLiteral("\\-"));
    // A line starting with a dot or a quote would be read as a request.
    text.replace(QStringLiteral("\n."), QStringLiteral("\n\\&."));
    if (text.startsWith(QLatin1Char('.')) || text.startsWith(QLatin1Char('\'')))
        text.prepend(QStringLiteral("\\&"));
    return text;
}

/// `name(section)`: its one-line summary, a synopsis, the description (paragraphs separated by
/// blank lines; a paragraph with lines starting with two spaces is kept as it is) and every option.
inline QString render(const QString& name, int section, const QString& summary, const QString& synopsis,
                      const QString& description, const QList<QCommandLineOption>& options, const QString& date)
{
    QString out;
    out += QStringLiteral(".TH %1 %2 \"%3\" \"msgcode Desktop Host %4\"\n")
               .arg(name.toUpper())
               .arg(section)
               .arg(date, QStringLiteral(MDH_VERSION));
    out += QStringLiteral(".SH NAME\n%1 \\- %2\n").arg(escaped(name), escaped(summary));
    out += QStringLiteral(".SH SYNOPSIS\n.B %1\n%2\n").arg(escaped(name), escaped(synopsis));
    out += QStringLiteral(".SH DESCRIPTION\n");
    for (const QString& paragraph : description.split(QStringLiteral("\n\n"))) {
        if (paragraph.contains(QStringLiteral("\n  ")) || paragraph.startsWith(QStringLiteral("  ")))
            out += QStringLiteral(".nf\n%1\n.fi\n").arg(escaped(paragraph));
        else
            out += QStringLiteral(".PP\n%1\n").arg(escaped(paragraph));
    }
    out += QStringLiteral(".SH OPTIONS\n");
    for (const QCommandLineOption& option : options) {
        if (option.flags() & QCommandLineOption::HiddenFromHelp)
            continue;
        QStringList names;
        for (const QString& n : option.names())
            names.append((n.size() == 1 ? QStringLiteral("\\-") : QStringLiteral("\\-\\-")) + escaped(n));
        QString head = QStringLiteral("\\fB%1\\fR").arg(names.join(QStringLiteral(", ")));
        if (!option.valueName().isEmpty())
            head += QStringLiteral(" \\fI%1\\fR").arg(escaped(option.valueName()));
        out += QStringLiteral(".TP\n%1\n%2\n").arg(head, escaped(option.description()));
    }
    out += QStringLiteral(".SH SEE ALSO\nThe project's README and docs/ (protocol.md, remote.md, inspector.md, "
                          "evidence\\-viewer.md).\n");
    return out;
}

} // namespace ManPage
