// Fuzz target EvidencePath (docs/testing.md): where evidence may go. bridge/Meta's
// WorkspacePolicy (meta.workspacePath must resolve below WORKSPACE_ROOT) and
// bridge/evidence's Directory (opened component by component, never through a symlink), over a
// scratch tree with the usual traps: symlinks out of the workspace, relative and absolute, a loop,
// a dangling link, a link back inside, a file where a directory is expected and a sibling whose
// name starts with the root's name ("ws-evil" beside "ws").
//
// Invariants: a workspace path is accepted exactly when its real path lies inside the root, and
// what is accepted is that real path; an evidence directory that opens is really inside the
// workspace, and one opens exactly when no component on the way is a symlink or a non-directory.
//
// Input: byte 0 picks the check.
//   0: the rest is meta.workspacePath (relative text is taken below the scratch directory);
//      an accepted workspace then gets an evidence directory and a file written in it
//   1: the rest is a relative evidence path, given to isPlainRelativePath and Directory::open
//      only where it must be refused
//   2: each further byte picks a component from a fixed list (existing names, traps, "..", a new
//      name); Directory::open below the workspace root and a writeFile must agree with a walk
//   3: two strings split at the first NUL byte, given to WorkspacePolicy::isUnder

#include "FuzzCheck.h"
#include "bridge/evidence/EvidenceDirectory.h"
#include "bridge/protocol/Meta.h"

#include <QDir>
#include <QFile>
#include <QStringList>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

using Bridge::WorkspacePolicy;

namespace {

QString g_base; // the scratch directory (a real path)
QString g_root; // <base>/ws, the workspace root (a real path)

void removeScratch()
{
    if (!g_base.isEmpty())
        QDir(g_base).removeRecursively(); // removes links, never what they point to
}

bool symlinkTo(const QByteArray& target, const QString& link)
{
    return ::symlink(target.constData(), QFile::encodeName(link).constData()) == 0;
}

void makeScratch()
{
    QByteArray pattern = qgetenv("TMPDIR");
    if (pattern.isEmpty())
        pattern = "/tmp";
    pattern += "/mdh-fuzz-evidence.XXXXXX";
    if (!::mkdtemp(pattern.data()))
        FuzzSupport::fail(__FILE__, __LINE__, "mkdtemp", pattern);
    g_base = *WorkspacePolicy::realPath(QFile::decodeName(pattern));
    g_root = g_base + QStringLiteral("/ws");
    std::atexit(removeScratch);

    QDir base(g_base);
    bool ok = base.mkpath(QStringLiteral("ws/a/b")) && base.mkpath(QStringLiteral("ws-evil")) &&
              base.mkpath(QStringLiteral("outside/x"));
    QFile file(g_root + QStringLiteral("/file"));
    ok = ok && file.open(QIODevice::WriteOnly) && file.write("not a directory") > 0;
    file.close();
    ok = ok && symlinkTo("a", g_root + QStringLiteral("/link-in")) &&
         symlinkTo("../outside", g_root + QStringLiteral("/link-out")) &&
         symlinkTo(QFile::encodeName(g_base + QStringLiteral("/outside")), g_root + QStringLiteral("/abs-out")) &&
         symlinkTo("loop", g_root + QStringLiteral("/loop")) &&
         symlinkTo("nowhere", g_root + QStringLiteral("/dangling")) &&
         symlinkTo("../..", g_root + QStringLiteral("/a/up")) && symlinkTo(".", g_root + QStringLiteral("/a/self")) &&
         symlinkTo("../ws-evil", g_root + QStringLiteral("/evil"));
    if (!ok)
        FuzzSupport::fail(__FILE__, __LINE__, "building the scratch tree", g_base.toUtf8());
}

// Whether the real path `path` is `root` or below it, by components (a second opinion on isUnder).
bool insideByComponents(const QString& path, const QString& root)
{
    const QStringList p = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QStringList r = root.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    return p.size() >= r.size() && p.mid(0, r.size()) == r;
}

enum class Kind { Missing, Directory, Other };

Kind lkind(const QString& path)
{
    struct stat st
    {
    };
    if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
        return Kind::Missing;
    return S_ISDIR(st.st_mode) ? Kind::Directory : Kind::Other;
}

// Whether Directory::open(root, relative) must succeed: every existing component is a real
// directory (not a symlink); from the first missing one on, everything is created.
bool walkable(const QString& root, const QStringList& components)
{
    QString path = root;
    for (const QString& part : components) {
        path += QLatin1Char('/') + part;
        switch (lkind(path)) {
        case Kind::Missing:
            return true;
        case Kind::Directory:
            break;
        case Kind::Other:
            return false;
        }
    }
    return true;
}

// The evidence directory's handle is where its path says, and that is inside the workspace.
void checkOpened(const Evidence::Directory& dir, const QString& workspace)
{
    const QString path = dir.path();
    MDH_FUZZ_CHECK_MSG(path.endsWith(QLatin1Char('/')), path);
    const auto real = WorkspacePolicy::realPath(path);
    MDH_FUZZ_CHECK_MSG(real.has_value(), path);
    MDH_FUZZ_CHECK_MSG(*real == path.chopped(1), path + QStringLiteral(" is really ") + *real);
    MDH_FUZZ_CHECK_MSG(insideByComponents(*real, workspace), *real);
    MDH_FUZZ_CHECK_MSG(insideByComponents(*real, g_root), *real);
    // A file written through the handle lands in that very directory.
    MDH_FUZZ_CHECK(!dir.writeFile(QStringLiteral("evidence.json"), QByteArrayLiteral("{}")).has_value());
    MDH_FUZZ_CHECK(lkind(path + QStringLiteral("evidence.json")) == Kind::Other);
    const auto back = dir.readFile(QStringLiteral("evidence.json"));
    MDH_FUZZ_CHECK(back && *back == "{}");
}

void checkWorkspacePath(const QByteArray& bytes)
{
    static const WorkspacePolicy policy(g_root);
    MDH_FUZZ_CHECK(policy.isConfigured() && policy.rootRealPath() == g_root);
    QString path = QFile::decodeName(bytes);
    if (!path.startsWith(QLatin1Char('/')))
        path = g_base + QLatin1Char('/') + path;
    const auto checked = policy.check(path);
    // What realpath(3) makes of the same bytes; an embedded NUL ends them, as it does for the policy.
    const auto real = WorkspacePolicy::realPath(path);
    if (!checked) {
        const QString reason = checked.error().details.value(QLatin1String("reason")).toString();
        if (reason == QLatin1String("not_found"))
            MDH_FUZZ_CHECK_MSG(!real, path);
        else if (reason == QLatin1String("not_a_directory"))
            MDH_FUZZ_CHECK_MSG(real && lkind(*real) != Kind::Directory, path);
        else
            MDH_FUZZ_CHECK_MSG(reason == QLatin1String("outside_root") && real && !insideByComponents(*real, g_root),
                               path + QStringLiteral(" refused as ") + reason);
        return;
    }
    const QString accepted = checked.value();
    MDH_FUZZ_CHECK_MSG(real && accepted == *real, path);
    MDH_FUZZ_CHECK_MSG(insideByComponents(accepted, g_root), accepted);
    MDH_FUZZ_CHECK_MSG(WorkspacePolicy::isUnder(accepted, g_root), accepted);
    MDH_FUZZ_CHECK_MSG(lkind(accepted) == Kind::Directory, accepted);
    // As the dispatcher goes on: the execution's evidence directory below the accepted workspace.
    QString error;
    const auto dir = Evidence::Directory::open(
        accepted, QStringLiteral("artifacts/desktop/2026-01-01/0f8fad5b-d9cb-469f-a165-70867728950e"), &error);
    MDH_FUZZ_CHECK_MSG(dir.has_value(), accepted + QStringLiteral(": ") + error);
    checkOpened(*dir, accepted);
}

void checkRelativePath(const QByteArray& bytes)
{
    const QString relative = QFile::decodeName(bytes);
    const QStringList parts = relative.split(QLatin1Char('/'));
    bool plain = !relative.isEmpty() && !relative.startsWith(QLatin1Char('/'));
    for (const QString& part : parts)
        plain = plain && !part.isEmpty() && part != QLatin1String(".") && part != QLatin1String("..");
    MDH_FUZZ_CHECK_MSG(Evidence::isPlainRelativePath(relative) == plain, relative);
    if (!plain) {
        QString error;
        MDH_FUZZ_CHECK_MSG(!Evidence::Directory::open(g_root, relative, &error), relative);
        MDH_FUZZ_CHECK(!error.isEmpty());
    }
}

void checkComponents(const uint8_t* data, size_t size)
{
    static const QStringList names = {
        QStringLiteral("a"),       QStringLiteral("b"),    QStringLiteral("link-in"),  QStringLiteral("link-out"),
        QStringLiteral("abs-out"), QStringLiteral("loop"), QStringLiteral("dangling"), QStringLiteral("file"),
        QStringLiteral("up"),      QStringLiteral("self"), QStringLiteral("evil"),     QStringLiteral(".."),
        QStringLiteral("."),       QStringLiteral(""),     QStringLiteral("n"),        QStringLiteral("x"),
    };
    // At most 4 components from a fixed list keeps what the fuzzer creates small and bounded.
    QStringList parts;
    for (size_t i = 0; i < size && i < 4; ++i)
        parts.append(names.at(data[i] % names.size()));
    const QString relative = parts.join(QLatin1Char('/'));
    QString error;
    const auto dir = Evidence::Directory::open(g_root, relative, &error);
    const bool expected = Evidence::isPlainRelativePath(relative) && walkable(g_root, parts);
    MDH_FUZZ_CHECK_MSG(dir.has_value() == expected, relative + QStringLiteral(": ") + error);
    if (dir)
        checkOpened(*dir, g_root);
    else
        MDH_FUZZ_CHECK(!error.isEmpty());

    // A file below the workspace root, with its directories given in the file name.
    if (Evidence::isPlainRelativePath(relative)) {
        static const auto rootDir = [] {
            QString rootError;
            auto opened = Evidence::Directory::open(g_root, QStringLiteral("a"), &rootError);
            MDH_FUZZ_CHECK_MSG(opened.has_value(), rootError);
            return *opened;
        }();
        const auto written = rootDir.writeFile(relative + QStringLiteral("/evidence.json"), QByteArrayLiteral("{}"));
        const QString file = g_root + QStringLiteral("/a/") + relative + QStringLiteral("/evidence.json");
        MDH_FUZZ_CHECK_MSG(written.has_value() != walkable(g_root + QStringLiteral("/a"), parts),
                           relative + QStringLiteral(": ") + written.value_or(QString()));
        if (!written) {
            const auto real = WorkspacePolicy::realPath(file);
            MDH_FUZZ_CHECK_MSG(real && *real == file && lkind(file) == Kind::Other, file);
        }
    }
}

void checkIsUnder(const QByteArray& bytes)
{
    const qsizetype nul = bytes.indexOf('\0');
    const QString path = QFile::decodeName(nul < 0 ? bytes : bytes.left(nul));
    const QString root = QFile::decodeName(nul < 0 ? QByteArray() : bytes.mid(nul + 1));
    const bool under = WorkspacePolicy::isUnder(path, root);
    if (root == QLatin1String("/"))
        MDH_FUZZ_CHECK(under == path.startsWith(QLatin1Char('/')));
    else
        MDH_FUZZ_CHECK(under == (path == root || path.startsWith(root + QLatin1Char('/'))));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    makeScratch();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1 || size > PATH_MAX)
        return 0;
    const QByteArray rest(reinterpret_cast<const char*>(data) + 1, qsizetype(size - 1));
    switch (data[0] % 4) {
    case 0:
        checkWorkspacePath(rest);
        break;
    case 1:
        checkRelativePath(rest);
        break;
    case 2:
        checkComponents(data + 1, size - 1);
        break;
    case 3:
        checkIsUnder(rest);
        break;
    }
    return 0;
}
