#include "automation/AppIdentity.h"

#include "automation/Types.h"
#include "automation/platform/ProcessInfo.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QMutex>
#include <QMutexLocker>
#include <QProcessEnvironment>

#include <optional>

namespace Automation {

namespace {

constexpr qint64 kEntriesKeptMs = 60000;

QStringList defaultDataDirs()
{
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    QString home = env.value(QStringLiteral("XDG_DATA_HOME"));
    if (home.isEmpty())
        home = QDir::homePath() + QStringLiteral("/.local/share");
    QString dirs = env.value(QStringLiteral("XDG_DATA_DIRS"));
    if (dirs.isEmpty())
        dirs = QStringLiteral("/usr/local/share:/usr/share");
    return QStringList{home} + dirs.split(QLatin1Char(':'), Qt::SkipEmptyParts);
}

/// The program an Exec line runs: its first word that is not `env` or a VAR=value, as a file name.
QString programOf(const QString& exec)
{
    const QStringList words = exec.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (QString word : words) {
        word.remove(QLatin1Char('"'));
        if (word == QLatin1String("env") || word.contains(QLatin1Char('=')))
            continue;
        return QFileInfo(word).fileName();
    }
    return {};
}

struct Known
{
    DesktopEntry entry;
    QString exec;    ///< the program of Exec
    QString tryExec; ///< the program of TryExec
};

struct Catalogue
{
    QStringList dirs;
    qint64 readAtMs = 0;
    QList<Known> entries;
};

/// The [Desktop Entry] group of one .desktop file; nullopt when it cannot be read.
std::optional<Known> readKnown(const QString& path)
{
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly | QIODevice::Text))
        return std::nullopt;
    Known known;
    known.entry.id = QFileInfo(path).fileName();
    bool inMain = false;
    while (!in.atEnd()) {
        const QString line = QString::fromUtf8(in.readLine()).trimmed();
        if (line.startsWith(QLatin1Char('['))) {
            inMain = line == QLatin1String("[Desktop Entry]");
            continue;
        }
        if (!inMain)
            continue;
        if (line.startsWith(QLatin1String("Exec=")))
            known.exec = programOf(line.mid(5));
        else if (line.startsWith(QLatin1String("TryExec=")))
            known.tryExec = programOf(line.mid(8));
        else if (line.startsWith(QLatin1String("Categories=")))
            known.entry.categories = line.mid(11).split(QLatin1Char(';'), Qt::SkipEmptyParts);
    }
    return known;
}

QList<Known> readAll(const QStringList& dataDirs)
{
    QList<Known> out;
    QStringList seen;
    for (const QString& dir : dataDirs) {
        const QDir applications(dir + QStringLiteral("/applications"));
        const QStringList files = applications.entryList({QStringLiteral("*.desktop")}, QDir::Files, QDir::Name);
        for (const QString& file : files) {
            // The first folder's entry wins, as in the XDG menu: a user's entry hides the system's.
            if (seen.contains(file))
                continue;
            seen.append(file);
            if (auto known = readKnown(applications.filePath(file)))
                out.append(*known);
        }
    }
    return out;
}

} // namespace

QJsonObject AppIdentity::toJson() const
{
    QJsonObject out{{QStringLiteral("pid"), pid}, {QStringLiteral("name"), name}};
    if (!bundleId.isEmpty())
        out.insert(QStringLiteral("bundleId"), bundleId);
    if (!executable.isEmpty())
        out.insert(QStringLiteral("executable"), executable);
    if (!desktopId.isEmpty())
        out.insert(QStringLiteral("desktopId"), desktopId);
    if (!categories.isEmpty())
        out.insert(QStringLiteral("categories"), QJsonArray::fromStringList(categories));
    return out;
}

DesktopEntry readDesktopEntry(const QString& path)
{
    const auto known = readKnown(path);
    return known ? known->entry : DesktopEntry{};
}

DesktopEntry desktopEntryFor(const QString& executable, const QStringList& dataDirs)
{
    if (executable.isEmpty())
        return {};
    static QMutex mutex;
    static Catalogue catalogue;
    const QStringList dirs = dataDirs.isEmpty() ? defaultDataDirs() : dataDirs;
    QMutexLocker lock(&mutex);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (catalogue.dirs != dirs || now - catalogue.readAtMs > kEntriesKeptMs) {
        catalogue.dirs = dirs;
        catalogue.readAtMs = now;
        catalogue.entries = readAll(dirs);
    }
    // An entry named after the program first (xterm.desktop for xterm), then any that runs it.
    for (const Known& known : std::as_const(catalogue.entries)) {
        if (known.entry.id == executable + QStringLiteral(".desktop") &&
            (known.exec == executable || known.tryExec == executable))
            return known.entry;
    }
    for (const Known& known : std::as_const(catalogue.entries)) {
        if (known.exec == executable || known.tryExec == executable)
            return known.entry;
    }
    return {};
}

AppIdentity identify(const ResolvedRoute& route)
{
    AppIdentity out;
    out.pid = route.pid;
    out.name = route.appName;
#ifdef Q_OS_MACOS
    out.bundleId = route.bundleId;
#endif
    out.executablePath = route.pid > 0 ? Platform::processExecutable(route.pid) : QString();
    out.executable = QFileInfo(out.executablePath).fileName();
    if (route.pid > 0) {
        if (const auto launched = Platform::processEnvironment(route.pid, QStringLiteral("GIO_LAUNCHED_DESKTOP_FILE"));
            launched && QFileInfo::exists(*launched)) {
            const DesktopEntry entry = readDesktopEntry(*launched);
            out.desktopId = entry.id;
            out.categories = entry.categories;
            return out;
        }
    }
    const DesktopEntry entry = desktopEntryFor(out.executable);
    out.desktopId = entry.id;
    out.categories = entry.categories;
    return out;
}

} // namespace Automation
