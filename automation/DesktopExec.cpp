#include "automation/DesktopExec.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace Automation {

namespace {

QStringList applicationDirs(const QStringList& dataDirs)
{
    QStringList dirs = dataDirs;
    if (dirs.isEmpty()) {
        dirs.append(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation));
        const QString fromEnvironment =
            qEnvironmentVariable("XDG_DATA_DIRS", QStringLiteral("/usr/local/share:/usr/share"));
        for (const QString& dir : fromEnvironment.split(QLatin1Char(':'), Qt::SkipEmptyParts))
            dirs.append(dir);
    }
    QStringList out;
    for (const QString& dir : dirs)
        out.append(QDir(dir).filePath(QStringLiteral("applications")));
    return out;
}

/// The string escapes of a value (\s \n \t \r \\).
QString unescapeValue(const QString& value)
{
    QString out;
    out.reserve(value.size());
    for (qsizetype i = 0; i < value.size(); ++i) {
        const QChar c = value.at(i);
        if (c != QLatin1Char('\\') || i + 1 == value.size()) {
            out.append(c);
            continue;
        }
        const QChar next = value.at(++i);
        if (next == QLatin1Char('s'))
            out.append(QLatin1Char(' '));
        else if (next == QLatin1Char('n'))
            out.append(QLatin1Char('\n'));
        else if (next == QLatin1Char('t'))
            out.append(QLatin1Char('\t'));
        else if (next == QLatin1Char('r'))
            out.append(QLatin1Char('\r'));
        else if (next == QLatin1Char('\\'))
            out.append(QLatin1Char('\\'));
        else
            out.append(QLatin1Char('\\')).append(next);
    }
    return out;
}

} // namespace

QString desktopEntryPath(const QString& desktopId, const QStringList& dataDirs)
{
    QString id = desktopId;
    if (!id.endsWith(QLatin1String(".desktop")))
        id += QStringLiteral(".desktop");
    if (id.contains(QLatin1Char('/')))
        return {};
    for (const QString& dir : applicationDirs(dataDirs)) {
        const QString direct = QDir(dir).filePath(id);
        if (QFileInfo::exists(direct))
            return direct;
        // "a-b-c.desktop" may live at a/b-c.desktop or a/b/c.desktop.
        const QStringList parts = id.split(QLatin1Char('-'));
        for (qsizetype split = 1; split < parts.size(); ++split) {
            const QString nested = QDir(dir).filePath(parts.mid(0, split).join(QLatin1Char('/')) + QLatin1Char('/') +
                                                      parts.mid(split).join(QLatin1Char('-')));
            if (QFileInfo::exists(nested))
                return nested;
        }
    }
    return {};
}

std::optional<DesktopLaunch> readDesktopLaunch(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return std::nullopt;
    DesktopLaunch out;
    out.path = path;
    out.id = QFileInfo(path).fileName();
    bool inGroup = false;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        if (line.startsWith(QLatin1Char('['))) {
            inGroup = line == QLatin1String("[Desktop Entry]");
            continue;
        }
        if (!inGroup)
            continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0)
            continue;
        const QString key = line.left(eq).trimmed();
        const QString value = unescapeValue(line.mid(eq + 1).trimmed());
        if (key == QLatin1String("Name"))
            out.name = value;
        else if (key == QLatin1String("Exec"))
            out.exec = value;
        else if (key == QLatin1String("TryExec"))
            out.tryExec = value;
        else if (key == QLatin1String("Icon"))
            out.icon = value;
        else if (key == QLatin1String("Terminal"))
            out.terminal = value == QLatin1String("true");
        else if ((key == QLatin1String("Hidden") || key == QLatin1String("NoDisplay")) &&
                 value == QLatin1String("true"))
            out.hidden = true;
    }
    if (out.exec.isEmpty())
        return std::nullopt;
    return out;
}

std::optional<QStringList> execArguments(const DesktopLaunch& entry, const QStringList& files, QString* error)
{
    QStringList out;
    QString current;
    bool inArgument = false;
    bool quoted = false;
    const QString& exec = entry.exec;
    const auto finish = [&] {
        if (inArgument)
            out.append(current);
        current.clear();
        inArgument = false;
    };
    for (qsizetype i = 0; i < exec.size(); ++i) {
        const QChar c = exec.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                quoted = false;
            } else if (c == QLatin1Char('\\') && i + 1 < exec.size()) {
                const QChar next = exec.at(i + 1);
                if (next == QLatin1Char('"') || next == QLatin1Char('`') || next == QLatin1Char('$') ||
                    next == QLatin1Char('\\')) {
                    current.append(next);
                    ++i;
                } else {
                    current.append(c);
                }
            } else if (c == QLatin1Char('%') && i + 1 < exec.size() && exec.at(i + 1) != QLatin1Char('%')) {
                *error = QStringLiteral("the Exec line has a field code inside quotes");
                return std::nullopt;
            } else {
                current.append(c);
            }
            continue;
        }
        if (c == QLatin1Char(' ') || c == QLatin1Char('\t')) {
            finish();
            continue;
        }
        if (c == QLatin1Char('"')) {
            quoted = true;
            inArgument = true;
            continue;
        }
        if (c == QLatin1Char('%') && i + 1 < exec.size()) {
            const QChar code = exec.at(++i);
            switch (code.toLatin1()) {
            case '%':
                current.append(QLatin1Char('%'));
                inArgument = true;
                break;
            case 'f':
            case 'u':
                if (!files.isEmpty()) {
                    current.append(files.first());
                    inArgument = true;
                }
                break;
            case 'F':
            case 'U':
                // A list is arguments of their own.
                finish();
                out.append(files);
                break;
            case 'i':
                finish();
                if (!entry.icon.isEmpty())
                    out << QStringLiteral("--icon") << entry.icon;
                break;
            case 'c':
                current.append(entry.name);
                inArgument = true;
                break;
            case 'k':
                current.append(entry.path);
                inArgument = true;
                break;
            case 'd':
            case 'D':
            case 'n':
            case 'N':
            case 'v':
            case 'm':
                break; // deprecated: removed
            default:
                *error = QStringLiteral("the Exec line has an unknown field code %%%1").arg(code);
                return std::nullopt;
            }
            continue;
        }
        current.append(c);
        inArgument = true;
    }
    if (quoted) {
        *error = QStringLiteral("the Exec line has an open quote");
        return std::nullopt;
    }
    finish();
    if (out.isEmpty() || out.first().isEmpty()) {
        *error = QStringLiteral("the Exec line names no program");
        return std::nullopt;
    }
    return out;
}

} // namespace Automation
