#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace Mcp {

/// ghost-os's recipes (schema v2, docs/msgcode.md "Recipes"): JSON files named after the
/// recipe in the host's data directory, validated before they are saved.
class RecipeStore
{
public:
    explicit RecipeStore(QString dir = defaultDir());

    /// $MSGCODE_DESKTOP_RECIPES_DIR, else `<data>/msgcode/msgcode-desktop-host/recipes`, the
    /// host's own data directory.
    static QString defaultDir();
    QString dir() const { return m_dir; }

    /// Every stored recipe that reads back as valid; `broken` gets the file names of the rest.
    QList<QJsonObject> list(QStringList* broken = nullptr) const;
    std::optional<QJsonObject> load(const QString& name) const;
    /// Saves a valid recipe under its name (replacing one of that name); the error otherwise.
    std::optional<QString> save(const QJsonObject& recipe) const;
    bool remove(const QString& name) const;

    /// What is wrong with `recipe` as a schema v2 recipe, naming the field; nullopt when valid.
    static std::optional<QString> validate(const QJsonObject& recipe);

private:
    QString pathOf(const QString& name) const;
    QString m_dir;
};

/// Calls one of the door's tools and answers its result ({content, isError}).
using ToolCall = std::function<QJsonObject(const QString& tool, const QJsonObject& arguments)>;
/// A wait_after delay of `ms`: whether to go on (false: stop the recipe there). The door's
/// pause sleeps; stopping a recipe is ending the door (SIGTERM) or desktop_abort on a step.
using Pause = std::function<bool(int ms)>;

/// Runs a recipe step by step through the door's own tools (each step is a host execution with
/// its own evidence), `{{param}}` replaced by `params`. Answers ghost-os's ghost_run result:
/// the steps done with their results, or which step failed and why.
QJsonObject runRecipe(const QJsonObject& recipe, const QJsonObject& params, const ToolCall& call, const Pause& pause);

} // namespace Mcp
