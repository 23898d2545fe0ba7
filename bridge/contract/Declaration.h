#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

/// The bridge's methods, each declared once (docs/architecture.md, "One declaration per
/// method"): what a request may carry, typed field by field, and what it answers. The params
/// check (Validate.h), the JSON Schema and `rpc.discover` (Schema.h), the doors' tool schemas and
/// the docs' method tables are all derived from these declarations. Qt Core only: the CLI, the
/// MCP door and the GUI read them without the engine.
namespace Contract {

/// What a method does to the desktop (docs/protocol.md §4.2).
enum class Kind {
    ReadOnly,   ///< queued, evidence, no confirmation
    SideEffect, ///< queued, evidence, confirmed first
    Host,       ///< about the host itself, answered without the worker
};
QString kindName(Kind kind);

/// The class of an action, which the owner's rules name (docs/protocol.md, "Policy"): part of
/// each method's declaration, so a new method states what the owner's rules will call it.
enum class ActionClass {
    Read,      ///< reads the screen or the tree
    Type,      ///< text into an element
    Pointer,   ///< clicks, scrolls, pointer gestures, menu picks
    Keys,      ///< key chords
    Window,    ///< focus, move, resize, minimize, close a window
    App,       ///< launch, quit an app
    Clipboard, ///< the clipboard's content
};
QString actionClassName(ActionClass actionClass);
std::optional<ActionClass> actionClassNamed(const QString& name);
QStringList actionClassNames();

struct Field;

/// One JSON value as the contract allows it.
struct Node
{
    enum class Type { Boolean, Integer, String, Object, Array, Ref, Any };
    Type type = Type::Any;
    QString description;
    // Integer
    std::optional<qint64> minimum, maximum;
    // String
    QStringList enumValues; ///< when set, the string must be one of these
    bool nonEmpty = false;
    QString pattern; ///< a regular expression the whole string must match
    // Object
    QList<Field> fields;
    bool closed = true;                              ///< members outside `fields` are refused
    QList<QStringList> exclusive;                    ///< at most one member of each group
    QList<QStringList> atLeastOne;                   ///< at least one member of each group
    QList<QPair<QString, QString>> needs;            ///< (a, b): a is given only with b (a refusal names a)
    QList<QPair<QString, QStringList>> requiredWith; ///< (a, [b…]): a is required when any b is given (names a)
    std::optional<int> minProperties, maxProperties;
    // Array
    std::shared_ptr<Node> items;
    std::optional<int> minItems, maxItems;
    // Ref: a named shared type (Contract::sharedType)
    QString ref;
    // Any: with alternatives, the value must be one of them (JSON Schema anyOf)
    QList<Node> alternatives;
    /// Object rules that hold only while a member has one of some values (JSON Schema if/then).
    struct When;
    QList<std::shared_ptr<When>> when;
    QStringList forbidden; ///< members that must be absent (used inside `when`)
    QString forbiddenWhy;  ///< the refusal's words for them (default: "is not allowed here")
    std::optional<QJsonValue> defaultValue;
    /// A valid value, used where the contract's examples leave a field out (tests, docs).
    std::optional<QJsonValue> example;

    Node& doc(const QString& text)
    {
        description = text;
        return *this;
    }
    Node& byDefault(const QJsonValue& value)
    {
        defaultValue = value;
        return *this;
    }
    Node& sample(const QJsonValue& value)
    {
        example = value;
        return *this;
    }
};

/// A member of an object.
struct Field
{
    QString name;
    Node node;
    bool required = false;
    QString since; ///< the host version that added it; empty: since the contract's first version
};

/// While member `field` is one of `values` (or, with `negate`, is absent or none of them), the
/// object also meets `then` (its required, forbidden, exclusive and atLeastOne rules, and the
/// narrower node of any field it names).
struct Node::When
{
    QString field;
    QStringList values;
    bool negate = false;
    Node then;
};

/// One result member (documentation and the answer's schema; answers may carry more).
struct ResultField
{
    QString name;
    QString type; ///< JSON Schema type name
    QString description;
};

/// One action of a method whose `action` selects what it does, with its own kind and its own
/// class for the owner's rules (desktop.clipboard: `read` reads, `write` is a side effect).
struct Action
{
    QString name;
    Kind kind;
    QString description;
    ActionClass actionClass = ActionClass::Read;
};

/// One method of the bridge.
struct Method
{
    QString name;
    QString summary;
    Kind kind = Kind::ReadOnly;
    /// What the owner's rules call it (Read for every read-only method).
    ActionClass actionClass = ActionClass::Read;
    QList<Action> actions;
    /// meta.workspacePath is required (every queued method: its evidence goes there).
    bool workspaceBound = false;
    /// Never refused for lack of room in the caller's replay window (stop, abort, resume, health).
    bool alwaysAdmitted = false;
    Node params; ///< an object; `meta` is added by the generator
    QList<ResultField> result;
    QStringList errors; ///< wire names of the contract errors it may answer, beyond DESKTOP_INVALID_REQUEST
    QString since;
    QString docSection; ///< docs/protocol.md section
    QString engine;     ///< where its engine lives (docs/architecture.md "Where does X live?")
    QString declaredIn; ///< the declaration's file (set by the registry)
    /// A request's params as the contract shows them (meta left out); the schema must accept it.
    QJsonObject example;

    /// Whether any request of it may be a side effect (a method with actions: any of them).
    bool sideEffect() const { return kind == Kind::SideEffect; }
    /// The action `params` select (their `action` member), when the method declares actions.
    const Action* actionFor(const QJsonObject& params) const;
    /// Whether this very request is a side effect: its action's kind, else the method's.
    bool sideEffectFor(const QJsonObject& params) const;
    /// What the owner's rules call this very request: its action's class, else the method's.
    ActionClass actionClassFor(const QJsonObject& params) const;
};

// --- Builders ----------------------------------------------------------------------------------
Node boolean(const QString& description = {});
Node integer(qint64 minimum, qint64 maximum, const QString& description = {});
Node string(const QString& description = {});
Node nonEmptyString(const QString& description = {});
Node oneOf(const QStringList& values, const QString& description = {});
Node object(QList<Field> fields, const QString& description = {});
Node openObject(const QString& description = {});
Node arrayOf(Node items, std::optional<int> minItems = {}, std::optional<int> maxItems = {},
             const QString& description = {});
Node ref(const QString& type, const QString& description = {});
Node anyOf(QList<Node> alternatives, const QString& description = {});
/// `node` with a rule that holds while `field` is (or, `negate`, is not) one of `values`.
void when(Node& node, const QString& field, const QStringList& values, bool negate, Node then);

Field optional(const QString& name, Node node);
Field required(const QString& name, Node node);

/// The shared types (route, selector, target, confirm, …), declared once in SharedTypes.cpp.
const Node* sharedType(const QString& name);
QStringList sharedTypeNames();

/// Every method, in the contract's order.
const QList<Method>& methods();
const Method* find(const QString& name);
/// The names of the methods of one kind.
QStringList methodsOf(Kind kind);

/// A field of `node` by name (null when it has none).
const Field* fieldOf(const Node& node, const QString& name);
/// The default of a member, as declared.
QJsonValue defaultOf(const Node& node, const QString& name);

} // namespace Contract
