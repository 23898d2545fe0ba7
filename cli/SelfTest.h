#pragma once

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

/// `msgcode-desktopctl selftest` (docs/macos.md, "The self-test"): drives a text editor, a
/// calculator and a file manager through the host's methods, as an app description says, checks
/// every effect in the app (its text read back, the saved file, a folder on disk) and writes a
/// report and an evidence bundle. One program for both platforms: the descriptions are data
/// (cli/selftest/linux.json, macos.json). Exit codes: 0 every step passed, 1 a step failed,
/// 2 usage or a bad description, 3 no host.
namespace SelfTest {

struct Options
{
    QString socketPath;
    QString descriptionFile; ///< empty: the built-in description of this platform
    QString outDir;          ///< empty: ./msgcode-selftest-<time>
    bool keepScratch = false;
    bool json = false; ///< the report on stdout as JSON
    int timeoutMs = 30000;
};

int run(const Options& options);

/// The pieces a description is made of, exposed for the unit tests.
namespace Detail {

/// Replaces `{name}` in every string of `value` by `vars[name]`, and a string that is wholly
/// `${stepId:path}` by that value of the step's answer (`path` as for valueAt). nullopt and
/// `error` set when a reference cannot be resolved.
std::optional<QJsonValue> substitute(const QJsonValue& value, const QHash<QString, QString>& vars,
                                     const QHash<QString, QJsonObject>& answers, QString* error);

/// The values at a dotted path: `*` takes every element of an array, a number one element, and
/// `center` of a frame `{x, y, width, height}` its centre `{x, y}`.
QList<QJsonValue> valuesAt(const QJsonValue& root, const QString& path);

/// Whether `result` holds every expectation: `path` equal to the value (an array: any of them),
/// or `path~` containing the string. Returns what failed, empty when all held.
QStringList unmet(const QJsonObject& result, const QJsonObject& expectations);

} // namespace Detail

} // namespace SelfTest
