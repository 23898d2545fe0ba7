#include "bridge/LaunchAgent.h"

#include <QDir>
#include <QFile>
#include <QXmlStreamReader>

namespace LaunchAgent {

namespace {

QByteArray escaped(const QString& text)
{
    return text.toHtmlEscaped().toUtf8();
}

/// The value element after a <key> in a <dict>: its name and, for a string, its text.
struct Value
{
    QString element;
    QString text;
    QStringList dictKeys; ///< for a <dict>: its keys (one level)
};

Value readValue(QXmlStreamReader& xml)
{
    Value value;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement())
            break;
        if (xml.isEndElement())
            return value; // the dict ended after a key without a value
    }
    value.element = xml.name().toString();
    if (value.element == QLatin1String("string")) {
        value.text = xml.readElementText();
    } else if (value.element == QLatin1String("dict")) {
        int depth = 1;
        while (!xml.atEnd() && depth > 0) {
            xml.readNext();
            if (xml.isStartElement()) {
                if (depth == 1 && xml.name() == QLatin1String("key")) {
                    value.dictKeys.append(xml.readElementText().trimmed());
                    continue;
                }
                ++depth;
            } else if (xml.isEndElement()) {
                --depth;
            }
        }
    } else {
        xml.skipCurrentElement();
    }
    return value;
}

} // namespace

QByteArray plist(const QString& executable, bool runAtLoad)
{
    QByteArray out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                     "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
                     "<plist version=\"1.0\">\n<dict>\n";
    out += "\t<key>Label</key>\n\t<string>" + QByteArray(kLabel) + "</string>\n";
    out += "\t<key>ProgramArguments</key>\n\t<array>\n\t\t<string>" + escaped(executable) + "</string>\n\t</array>\n";
    out += "\t<key>AssociatedBundleIdentifiers</key>\n\t<array>\n\t\t<string>" + QByteArray(kLabel) +
           "</string>\n\t</array>\n";
    out += "\t<key>RunAtLoad</key>\n\t" + QByteArray(runAtLoad ? "<true/>" : "<false/>") + "\n";
    out += "\t<key>KeepAlive</key>\n\t<dict>\n\t\t<key>SuccessfulExit</key>\n\t\t<false/>\n\t</dict>\n";
    out += "\t<key>MachServices</key>\n\t<dict>\n\t\t<key>" + QByteArray(kMachService) +
           "</key>\n\t\t<true/>\n\t</dict>\n";
    out += "\t<key>ProcessType</key>\n\t<string>Interactive</string>\n";
    out += "\t<key>LimitLoadToSessionType</key>\n\t<string>Aqua</string>\n";
    out += "</dict>\n</plist>\n";
    return out;
}

std::optional<Agent> parse(const QByteArray& text)
{
    QXmlStreamReader xml(text);
    bool inPlist = false;
    while (!xml.atEnd() && !inPlist) {
        xml.readNext();
        inPlist = xml.isStartElement() && xml.name() == QLatin1String("plist");
    }
    if (!inPlist)
        return std::nullopt;
    while (!xml.atEnd() && !(xml.isStartElement() && xml.name() == QLatin1String("dict")))
        xml.readNext();
    if (xml.atEnd())
        return std::nullopt;
    Agent agent;
    // The top dict's keys, each followed by its value.
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isEndElement() && xml.name() == QLatin1String("dict"))
            break;
        if (!xml.isStartElement())
            continue;
        if (xml.name() != QLatin1String("key")) {
            xml.skipCurrentElement();
            continue;
        }
        const QString key = xml.readElementText().trimmed();
        const Value value = readValue(xml);
        if (key == QLatin1String("Label"))
            agent.label = value.text.trimmed();
        else if (key == QLatin1String("RunAtLoad"))
            agent.runAtLoad = value.element == QLatin1String("true");
        else if (key == QLatin1String("MachServices"))
            agent.machServices = value.dictKeys;
    }
    if (xml.hasError())
        return std::nullopt;
    return agent;
}

QList<ForeignOwner> foreignOwners(const QStringList& directories, const QString& service)
{
    QList<ForeignOwner> out;
    for (const QString& directory : directories) {
        const QDir dir(directory);
        for (const QString& name : dir.entryList({QStringLiteral("*.plist")}, QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(name));
            if (!file.open(QIODevice::ReadOnly) || file.size() > qint64(1024) * 1024)
                continue;
            const auto agent = parse(file.readAll());
            if (agent && agent->label != QLatin1String(kLabel) && agent->machServices.contains(service))
                out.append(ForeignOwner{file.fileName(), agent->label});
        }
    }
    return out;
}

QString removalCommands(const ForeignOwner& owner)
{
    const QString quoted =
        QLatin1Char('\'') + QString(owner.path).replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\'');
    return QStringLiteral("launchctl bootout gui/$(id -u)/%1; rm %2").arg(owner.label, quoted);
}

} // namespace LaunchAgent
