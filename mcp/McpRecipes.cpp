#include "mcp/McpRecipes.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

namespace Mcp {

namespace {

const QStringList& stepActions()
{
    static const QStringList actions{QStringLiteral("click"),  QStringLiteral("type"),       QStringLiteral("press"),
                                     QStringLiteral("hotkey"), QStringLiteral("focus"),      QStringLiteral("scroll"),
                                     QStringLiteral("hover"),  QStringLiteral("long_press"), QStringLiteral("drag"),
                                     QStringLiteral("wait")};
    return actions;
}

bool isInteger(const QJsonValue& value)
{
    return value.isDouble() && value.toDouble() == static_cast<double>(value.toInteger());
}

// What the locator of a step's target says in the door's arguments: the query, role, dom_id.
QJsonObject locatorArguments(const QJsonObject& target)
{
    QJsonObject out;
    if (const QString name = target.value(QStringLiteral("computedNameContains")).toString(); !name.isEmpty())
        out.insert(QStringLiteral("query"), name);
    for (const auto& value : target.value(QStringLiteral("criteria")).toArray()) {
        const QJsonObject criterion = value.toObject();
        const QString attribute = criterion.value(QStringLiteral("attribute")).toString();
        const QString wanted = criterion.value(QStringLiteral("value")).toString();
        if (attribute == QLatin1String("AXRole"))
            out.insert(QStringLiteral("role"), wanted);
        else if (attribute == QLatin1String("AXDOMIdentifier") || attribute == QLatin1String("AXIdentifier"))
            out.insert(QStringLiteral("dom_id"), wanted);
        else if ((attribute == QLatin1String("AXTitle") || attribute == QLatin1String("AXDescription") ||
                  attribute == QLatin1String("AXValue")) &&
                 !out.contains(QStringLiteral("query")))
            out.insert(QStringLiteral("query"), wanted);
    }
    return out;
}

QString substitute(QString text, const QJsonObject& params)
{
    for (auto it = params.constBegin(); it != params.constEnd(); ++it)
        text.replace(QStringLiteral("{{%1}}").arg(it.key()), it.value().toString());
    return text;
}

// A step's tool and arguments: its target's locator, its params (strings, numbers where the
// tool takes numbers, lists split at commas) and the recipe's app.
std::pair<QString, QJsonObject> toolFor(const QJsonObject& step, const QJsonObject& params, const QString& app)
{
    static const QStringList numbers{
        QStringLiteral("x"),       QStringLiteral("y"),        QStringLiteral("count"),
        QStringLiteral("amount"),  QStringLiteral("duration"), QStringLiteral("to_x"),
        QStringLiteral("to_y"),    QStringLiteral("from_x"),   QStringLiteral("from_y"),
        QStringLiteral("timeout"), QStringLiteral("interval"), QStringLiteral("hold_duration"),
        QStringLiteral("width"),   QStringLiteral("height")};
    const QString action = step.value(QStringLiteral("action")).toString();
    QJsonObject arguments = locatorArguments(step.value(QStringLiteral("target")).toObject());
    for (auto it = arguments.begin(); it != arguments.end(); ++it)
        it.value() = substitute(it.value().toString(), params);
    if (!app.isEmpty())
        arguments.insert(QStringLiteral("app"), app);
    const QJsonObject stepParams = step.value(QStringLiteral("params")).toObject();
    for (auto it = stepParams.constBegin(); it != stepParams.constEnd(); ++it) {
        const QString value = substitute(it.value().toString(), params);
        if (numbers.contains(it.key())) {
            bool ok = false;
            const double number = value.toDouble(&ok);
            arguments.insert(it.key(), ok ? QJsonValue(number) : QJsonValue(value));
        } else if (it.key() == QLatin1String("keys") || it.key() == QLatin1String("modifiers")) {
            QJsonArray list;
            for (const QString& part : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
                list.append(part.trimmed());
            arguments.insert(it.key(), list);
        } else if (it.key() == QLatin1String("clear")) {
            arguments.insert(it.key(), value == QLatin1String("true"));
        } else {
            arguments.insert(it.key(), value);
        }
    }
    // The type step's field is its target.
    if (action == QLatin1String("type") && arguments.contains(QStringLiteral("query")))
        arguments.insert(QStringLiteral("into"), arguments.take(QStringLiteral("query")));
    static const QHash<QString, QString> tools{{QStringLiteral("click"), QStringLiteral("ghost_click")},
                                               {QStringLiteral("type"), QStringLiteral("ghost_type")},
                                               {QStringLiteral("press"), QStringLiteral("ghost_press")},
                                               {QStringLiteral("hotkey"), QStringLiteral("ghost_hotkey")},
                                               {QStringLiteral("focus"), QStringLiteral("ghost_focus")},
                                               {QStringLiteral("scroll"), QStringLiteral("ghost_scroll")},
                                               {QStringLiteral("hover"), QStringLiteral("ghost_hover")},
                                               {QStringLiteral("long_press"), QStringLiteral("ghost_long_press")},
                                               {QStringLiteral("drag"), QStringLiteral("ghost_drag")},
                                               {QStringLiteral("wait"), QStringLiteral("ghost_wait")}};
    return {tools.value(action), arguments};
}

// {success, error} of a tool's result.
std::pair<bool, QString> outcomeOf(const QJsonObject& result)
{
    const QJsonArray content = result.value(QStringLiteral("content")).toArray();
    for (const auto& item : content) {
        const QJsonObject entry = item.toObject();
        if (entry.value(QStringLiteral("type")).toString() != QLatin1String("text"))
            continue;
        const QJsonObject parsed =
            QJsonDocument::fromJson(entry.value(QStringLiteral("text")).toString().toUtf8()).object();
        if (parsed.contains(QStringLiteral("success")))
            return {parsed.value(QStringLiteral("success")).toBool(), parsed.value(QStringLiteral("error")).toString()};
        break;
    }
    return {!result.value(QStringLiteral("isError")).toBool(), QString()};
}

QJsonObject result(bool success, const QJsonObject& data, const QString& error = {}, const QString& suggestion = {})
{
    QJsonObject out{{QStringLiteral("success"), success}, {QStringLiteral("data"), data}};
    if (!error.isEmpty())
        out.insert(QStringLiteral("error"), error);
    if (!suggestion.isEmpty())
        out.insert(QStringLiteral("suggestion"), suggestion);
    return QJsonObject{{QStringLiteral("content"),
                        QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                               {QStringLiteral("text"), QString::fromUtf8(QJsonDocument(out).toJson(
                                                                            QJsonDocument::Compact))}}}},
                       {QStringLiteral("isError"), !success}};
}

} // namespace

RecipeStore::RecipeStore(QString dir) : m_dir(std::move(dir)) {}

QString RecipeStore::defaultDir()
{
    const QString fromEnvironment = qEnvironmentVariable("MSGCODE_DESKTOP_RECIPES_DIR");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/msgcode/msgcode-desktop-host/recipes");
}

QString RecipeStore::pathOf(const QString& name) const
{
    return QDir(m_dir).filePath(name + QStringLiteral(".json"));
}

std::optional<QString> RecipeStore::validate(const QJsonObject& recipe)
{
    static const QRegularExpression safeName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$"));
    if (!isInteger(recipe.value(QStringLiteral("schema_version"))))
        return QStringLiteral("schema_version must be an integer (2)");
    if (recipe.value(QStringLiteral("schema_version")).toInteger() != 2)
        return QStringLiteral("schema_version %1 is not supported (2 is)")
            .arg(recipe.value(QStringLiteral("schema_version")).toInteger());
    const QString name = recipe.value(QStringLiteral("name")).toString();
    if (!safeName.match(name).hasMatch())
        return QStringLiteral("name must be 1-100 letters, digits, dots, dashes or underscores (it names the file)");
    if (!recipe.value(QStringLiteral("description")).isString())
        return QStringLiteral("description must be a string");
    if (recipe.contains(QStringLiteral("app")) && !recipe.value(QStringLiteral("app")).isString())
        return QStringLiteral("app must be a string");
    const QJsonObject params = recipe.value(QStringLiteral("params")).toObject();
    if (recipe.contains(QStringLiteral("params")) && !recipe.value(QStringLiteral("params")).isObject())
        return QStringLiteral("params must be an object");
    for (auto it = params.constBegin(); it != params.constEnd(); ++it) {
        const QJsonObject param = it.value().toObject();
        if (!param.value(QStringLiteral("type")).isString() || !param.value(QStringLiteral("description")).isString())
            return QStringLiteral("params.%1 needs a type and a description (strings)").arg(it.key());
        if (param.contains(QStringLiteral("required")) && !param.value(QStringLiteral("required")).isBool())
            return QStringLiteral("params.%1.required must be a boolean").arg(it.key());
    }
    for (const char* key : {"on_failure"}) {
        const QJsonValue value = recipe.value(QLatin1String(key));
        if (!value.isUndefined() && value.toString() != QLatin1String("stop") &&
            value.toString() != QLatin1String("skip"))
            return QStringLiteral("on_failure must be stop or skip");
    }
    const QJsonValue steps = recipe.value(QStringLiteral("steps"));
    if (!steps.isArray() || steps.toArray().isEmpty())
        return QStringLiteral("steps must be a non-empty array");
    qsizetype i = 0;
    for (const auto& value : steps.toArray()) {
        const QString at = QStringLiteral("steps[%1]").arg(i++);
        const QJsonObject step = value.toObject();
        if (!value.isObject())
            return at + QStringLiteral(" must be an object");
        if (!isInteger(step.value(QStringLiteral("id"))))
            return at + QStringLiteral(".id must be an integer");
        if (!stepActions().contains(step.value(QStringLiteral("action")).toString()))
            return at + QStringLiteral(".action must be one of %1").arg(stepActions().join(QStringLiteral(", ")));
        if (step.contains(QStringLiteral("target")) &&
            !step.value(QStringLiteral("target")).toObject().value(QStringLiteral("criteria")).isArray())
            return at + QStringLiteral(".target needs criteria (an array, may be empty)");
        const QJsonValue stepParams = step.value(QStringLiteral("params"));
        if (!stepParams.isUndefined()) {
            if (!stepParams.isObject())
                return at + QStringLiteral(".params must be an object");
            const QJsonObject object = stepParams.toObject();
            for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
                if (!it.value().isString())
                    return at + QStringLiteral(".params.%1 must be a string (recipe params are strings)").arg(it.key());
            }
        }
        if (step.contains(QStringLiteral("wait_after")) &&
            !step.value(QStringLiteral("wait_after")).toObject().value(QStringLiteral("condition")).isString())
            return at + QStringLiteral(".wait_after needs a condition (a string)");
        const QJsonValue onFailure = step.value(QStringLiteral("on_failure"));
        if (!onFailure.isUndefined() && onFailure.toString() != QLatin1String("stop") &&
            onFailure.toString() != QLatin1String("skip"))
            return at + QStringLiteral(".on_failure must be stop or skip");
    }
    return std::nullopt;
}

QList<QJsonObject> RecipeStore::list(QStringList* broken) const
{
    QList<QJsonObject> out;
    for (const QFileInfo& file : QDir(m_dir).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile f(file.filePath());
        const QJsonObject recipe =
            f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.read(1 << 20)).object() : QJsonObject{};
        if (!recipe.isEmpty() && !validate(recipe))
            out.append(recipe);
        else if (broken)
            broken->append(file.fileName());
    }
    return out;
}

std::optional<QJsonObject> RecipeStore::load(const QString& name) const
{
    for (const QJsonObject& recipe : list()) {
        if (recipe.value(QStringLiteral("name")).toString() == name)
            return recipe;
    }
    return std::nullopt;
}

std::optional<QString> RecipeStore::save(const QJsonObject& recipe) const
{
    if (auto problem = validate(recipe))
        return problem;
    if (!QDir().mkpath(m_dir))
        return QStringLiteral("cannot create %1").arg(m_dir);
    QSaveFile file(pathOf(recipe.value(QStringLiteral("name")).toString()));
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    file.write(QJsonDocument(recipe).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return file.errorString();
    return std::nullopt;
}

bool RecipeStore::remove(const QString& name) const
{
    if (!load(name))
        return false;
    return QFile::remove(pathOf(name));
}

QJsonObject runRecipe(const QJsonObject& recipe, const QJsonObject& params, const ToolCall& call, const Pause& pause)
{
    const QString name = recipe.value(QStringLiteral("name")).toString();
    const QString app = recipe.value(QStringLiteral("app")).toString();
    const QJsonArray steps = recipe.value(QStringLiteral("steps")).toArray();
    QElapsedTimer timer;
    timer.start();
    QJsonArray stepResults;
    int completed = 0;
    const auto summary = [&] {
        return QJsonObject{{QStringLiteral("recipe"), name},
                           {QStringLiteral("steps_completed"), completed},
                           {QStringLiteral("total_steps"), steps.size()},
                           {QStringLiteral("duration_ms"), timer.elapsed()},
                           {QStringLiteral("step_results"), stepResults}};
    };
    // Parameters: the declared required ones must be given.
    const QJsonObject declared = recipe.value(QStringLiteral("params")).toObject();
    for (auto it = declared.constBegin(); it != declared.constEnd(); ++it) {
        if (it.value().toObject().value(QStringLiteral("required")).toBool() && !params.contains(it.key()))
            return result(false, summary(), QStringLiteral("Missing required recipe parameter: %1").arg(it.key()),
                          QStringLiteral("Call ghost_recipe_show '%1' for its parameters.").arg(name));
    }
    const QJsonObject preconditions = recipe.value(QStringLiteral("preconditions")).toObject();
    if (preconditions.contains(QStringLiteral("url_contains")))
        return result(false, summary(),
                      QStringLiteral("Recipe '%1' has a url_contains precondition, which msgcode Desktop Host cannot "
                                     "check (it does not read page addresses)")
                          .arg(name));
    if (const QString running = preconditions.value(QStringLiteral("app_running")).toString(); !running.isEmpty()) {
        const QJsonObject state = call(QStringLiteral("ghost_state"), QJsonObject{{QStringLiteral("app"), running}});
        const auto [ok, error] = outcomeOf(state);
        const QJsonObject parsed = QJsonDocument::fromJson(state.value(QStringLiteral("content"))
                                                               .toArray()
                                                               .first()
                                                               .toObject()
                                                               .value(QStringLiteral("text"))
                                                               .toString()
                                                               .toUtf8())
                                       .object();
        if (!ok || parsed.value(QStringLiteral("data")).toObject().value(QStringLiteral("app_count")).toInt() == 0)
            return result(false, summary(),
                          QStringLiteral("Recipe '%1' needs %2 running, and it is not%3")
                              .arg(name, running, error.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(error)),
                          QStringLiteral("Start %1 first.").arg(running));
    }
    if (!app.isEmpty()) {
        const auto [ok, error] =
            outcomeOf(call(QStringLiteral("ghost_focus"), QJsonObject{{QStringLiteral("app"), app}}));
        if (!ok)
            return result(false, summary(), QStringLiteral("Recipe '%1' could not focus %2: %3").arg(name, app, error));
    }
    const QString recipeOnFailure = recipe.value(QStringLiteral("on_failure")).toString(QStringLiteral("stop"));
    for (const auto& value : steps) {
        const QJsonObject step = value.toObject();
        const int id = static_cast<int>(step.value(QStringLiteral("id")).toInteger());
        const QString action = step.value(QStringLiteral("action")).toString();
        const QString note = step.value(QStringLiteral("note")).toString();
        QElapsedTimer stepTimer;
        stepTimer.start();
        const auto [tool, arguments] = toolFor(step, params, app);
        auto [ok, error] = outcomeOf(call(tool, arguments));
        // What to wait for before the next step.
        if (ok && step.contains(QStringLiteral("wait_after"))) {
            const QJsonObject wait = step.value(QStringLiteral("wait_after")).toObject();
            const QString condition = wait.value(QStringLiteral("condition")).toString();
            const double timeout =
                wait.value(QStringLiteral("timeout")).toDouble(condition == QLatin1String("delay") ? 0.5 : 10.0);
            if (condition == QLatin1String("delay")) {
                if (!pause(static_cast<int>(timeout * 1000))) {
                    ok = false;
                    error = QStringLiteral("stopped");
                }
            } else {
                QJsonObject waitArguments{{QStringLiteral("condition"), condition},
                                          {QStringLiteral("timeout"), timeout}};
                if (wait.contains(QStringLiteral("value")))
                    waitArguments.insert(QStringLiteral("value"),
                                         substitute(wait.value(QStringLiteral("value")).toString(), params));
                else if (const QJsonObject target = locatorArguments(wait.value(QStringLiteral("target")).toObject());
                         target.contains(QStringLiteral("query")))
                    waitArguments.insert(QStringLiteral("value"), target.value(QStringLiteral("query")));
                if (!app.isEmpty())
                    waitArguments.insert(QStringLiteral("app"), app);
                const auto waited = outcomeOf(call(QStringLiteral("ghost_wait"), waitArguments));
                if (!waited.first) {
                    ok = false;
                    error = QStringLiteral("after the step, %1").arg(waited.second);
                }
            }
        }
        QJsonObject entry{{QStringLiteral("step"), id},
                          {QStringLiteral("action"), action},
                          {QStringLiteral("success"), ok},
                          {QStringLiteral("duration_ms"), stepTimer.elapsed()}};
        if (!error.isEmpty())
            entry.insert(QStringLiteral("error"), error);
        if (!note.isEmpty())
            entry.insert(QStringLiteral("note"), note);
        stepResults.append(entry);
        if (ok) {
            ++completed;
            continue;
        }
        if (step.value(QStringLiteral("on_failure")).toString(recipeOnFailure) == QLatin1String("skip"))
            continue;
        QJsonObject data = summary();
        data.insert(QStringLiteral("failed_step"), id);
        data.insert(QStringLiteral("failed_action"), action);
        if (!note.isEmpty())
            data.insert(QStringLiteral("failed_note"), note);
        return result(false, data,
                      QStringLiteral("Recipe '%1' failed at step %2%3: %4")
                          .arg(name)
                          .arg(id)
                          .arg(note.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(note), error),
                      QStringLiteral("Look at the app (ghost_context, ghost_screenshot): the steps before step %1 "
                                     "were done.")
                          .arg(id));
    }
    return result(true, summary());
}

} // namespace Mcp
