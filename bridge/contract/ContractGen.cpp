// mdh-contract-gen: writes what comes from the method declarations into the tree (the JSON
// Schema and OpenRPC files of docs/schema/, the docs' method tables), or with `check` fails
// when the committed files differ from what the declarations give.
//
//   mdh-contract-gen write ROOT
//   mdh-contract-gen check ROOT

#include "bridge/contract/Declaration.h"
#include "bridge/contract/DocTables.h"
#include "bridge/contract/Schema.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QMap>
#include <QTextStream>

#include <cstdio>

namespace {

QByteArray json(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

QByteArray read(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3 || (qstrcmp(argv[1], "write") != 0 && qstrcmp(argv[1], "check") != 0)) {
        std::fprintf(stderr, "usage: mdh-contract-gen write|check ROOT\n");
        return 2;
    }
    const bool write = qstrcmp(argv[1], "write") == 0;
    const QDir root(QString::fromLocal8Bit(argv[2]));

    QMap<QString, QByteArray> wanted;
    wanted.insert(QStringLiteral("docs/schema/openrpc.json"), json(Contract::Schema::openRpc()));
    for (const auto& method : Contract::methods())
        wanted.insert(QStringLiteral("docs/schema/%1.json").arg(method.name),
                      json(Contract::Schema::methodFile(method)));

    const QList<std::tuple<QString, QString, QString>> regions{
        {QStringLiteral("README.md"), QStringLiteral("methods"),
         Contract::DocTables::readmeMethods(Contract::DocTables::sectionAnchors(
             QString::fromUtf8(read(root.filePath(QStringLiteral("docs/protocol.md"))))))},
        {QStringLiteral("docs/protocol.md"), QStringLiteral("methods"), Contract::DocTables::protocolMethods()},
        {QStringLiteral("docs/architecture.md"), QStringLiteral("methods"),
         Contract::DocTables::architectureMethods()}};
    int problems = 0;
    for (const auto& [file, name, body] : regions) {
        const QString text = QString::fromUtf8(read(root.filePath(file)));
        bool found = false;
        const QString updated = Contract::DocTables::replaceRegion(text, name, body, &found);
        if (!found) {
            std::fprintf(stderr, "%s: no generated:%s markers\n", qPrintable(file), qPrintable(name));
            ++problems;
            continue;
        }
        wanted.insert(file, updated.toUtf8());
    }

    // A schema file whose method is gone is stale too.
    const QStringList present =
        QDir(root.filePath(QStringLiteral("docs/schema"))).entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const auto& name : present) {
        const QString path = QStringLiteral("docs/schema/") + name;
        if (wanted.contains(path))
            continue;
        if (write)
            QFile::remove(root.filePath(path));
        else {
            std::fprintf(stderr, "%s: no method declares it\n", qPrintable(path));
            ++problems;
        }
    }

    for (auto it = wanted.cbegin(); it != wanted.cend(); ++it) {
        const QString path = root.filePath(it.key());
        if (read(path) == it.value())
            continue;
        if (!write) {
            std::fprintf(stderr, "%s is stale\n", qPrintable(it.key()));
            ++problems;
            continue;
        }
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(it.value()) != it.value().size()) {
            std::fprintf(stderr, "%s: cannot write\n", qPrintable(it.key()));
            ++problems;
        }
    }
    if (problems && !write)
        std::fprintf(stderr, "the files above differ from the method declarations; run: "
                             "build/default/bridge/contract/mdh-contract-gen write .\n");
    return problems ? 1 : 0;
}
