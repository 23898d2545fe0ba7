// ghost_recipes, ghost_run, ghost_recipe_show/save/delete: saved multi-step tasks.
#include "mcp/GhostTools.h"

#include "mcp/GhostToolSupport.h"
#include "mcp/McpRecipes.h"
#include "mcp/McpTools.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThread>
#include <algorithm>

namespace Mcp::Ghost {

QJsonObject recipesTool(const QJsonObject&, HostLink&)
{
    const RecipeStore store;
    QStringList broken;
    QJsonArray recipes;
    for (const QJsonObject& recipe : store.list(&broken)) {
        QJsonArray params;
        const QJsonObject declared = recipe.value(QStringLiteral("params")).toObject();
        for (auto it = declared.constBegin(); it != declared.constEnd(); ++it) {
            const QJsonObject param = it.value().toObject();
            params.append(QJsonObject{{QStringLiteral("name"), it.key()},
                                      {QStringLiteral("type"), param.value(QStringLiteral("type"))},
                                      {QStringLiteral("description"), param.value(QStringLiteral("description"))},
                                      {QStringLiteral("required"), param.value(QStringLiteral("required")).toBool()}});
        }
        QJsonObject entry{{QStringLiteral("name"), recipe.value(QStringLiteral("name"))},
                          {QStringLiteral("description"), recipe.value(QStringLiteral("description"))},
                          {QStringLiteral("params"), params}};
        if (recipe.contains(QStringLiteral("app")))
            entry.insert(QStringLiteral("app"), recipe.value(QStringLiteral("app")));
        recipes.append(entry);
    }
    QJsonObject data{{QStringLiteral("recipes"), recipes}, {QStringLiteral("count"), recipes.size()}};
    if (!broken.isEmpty())
        data.insert(QStringLiteral("invalid_files"), QJsonArray::fromStringList(broken));
    return success(data);
}

QJsonObject recipeShowTool(const QJsonObject& arguments, HostLink&)
{
    const QString name = arguments.value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        return failure(QStringLiteral("Missing required parameter: name"));
    const auto recipe = RecipeStore().load(name);
    if (!recipe)
        return failure(QStringLiteral("Recipe '%1' not found").arg(name), QStringLiteral("Call ghost_recipes."));
    return success(*recipe);
}

QJsonObject recipeSaveTool(const QJsonObject& arguments, HostLink&)
{
    const QJsonValue text = arguments.value(QStringLiteral("recipe_json"));
    if (!text.isString())
        return failure(QStringLiteral("Missing required parameter: recipe_json"));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(text.toString().toUtf8(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return failure(QStringLiteral("Failed to save recipe: Recipe JSON decode error: %1")
                           .arg(document.isObject() || error.error != QJsonParseError::NoError
                                    ? error.errorString()
                                    : QStringLiteral("not a JSON object")));
    if (auto problem = RecipeStore().save(document.object()))
        return failure(QStringLiteral("Failed to save recipe: Recipe JSON decode error: %1").arg(*problem));
    return success(QJsonObject{{QStringLiteral("saved"), document.object().value(QStringLiteral("name"))}});
}

QJsonObject recipeDeleteTool(const QJsonObject& arguments, HostLink&)
{
    const QString name = arguments.value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        return failure(QStringLiteral("Missing required parameter: name"));
    if (!RecipeStore().remove(name))
        return failure(QStringLiteral("Recipe '%1' not found").arg(name), QStringLiteral("Call ghost_recipes."));
    return success(QJsonObject{{QStringLiteral("deleted"), name}});
}

QJsonObject runTool(const QJsonObject& arguments, HostLink& host)
{
    const QString name = arguments.value(QStringLiteral("recipe")).toString();
    if (name.isEmpty())
        return failure(QStringLiteral("Missing required parameter: recipe"));
    const auto recipe = RecipeStore().load(name);
    if (!recipe)
        return failure(QStringLiteral("Recipe '%1' not found").arg(name),
                       QStringLiteral("Call ghost_recipes to see the recipes there are."));
    // ghost-os takes any JSON value for a parameter and uses its text.
    QJsonObject params;
    const QJsonObject given = arguments.value(QStringLiteral("params")).toObject();
    for (auto it = given.constBegin(); it != given.constEnd(); ++it) {
        const QJsonValue value = it.value();
        params.insert(
            it.key(),
            value.isString() ? value.toString()
            : value.isBool() ? (value.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
            : value.isDouble()
                ? (value.toDouble() == static_cast<double>(value.toInteger())
                       ? QString::number(value.toInteger())
                       : QString::number(value.toDouble(), 'g', 17))
                : QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1));
    }
    return runRecipe(
        *recipe, params,
        [&host](const QString& tool, const QJsonObject& toolArguments) { return callTool(tool, toolArguments, host); },
        [](int ms) {
            QThread::msleep(static_cast<unsigned long>(std::max(0, ms)));
            return true;
        });
}

} // namespace Mcp::Ghost
