#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace Automation {

/// Every error code the bridge may answer with (the table in docs/architecture.md, "Error codes").
enum class ErrorCode {
    HostNotReady,
    HostNotRunning,
    PermissionMissing,
    WorkspaceForbidden,
    ConfirmRequired,
    ElementNotFound,
    Timeout,
    Aborted,
    InternalError,
    InvalidRequest,
    StaleSnapshot,
    FocusLost,
    ModalBlocking,
    AxTraversalLimit,
    TargetUnresponsive,
    CallerForbidden,
};

/// The wire name, e.g. "DESKTOP_TIMEOUT".
QString errorCodeName(ErrorCode code);
/// Parses a wire name; nullopt for an unknown one.
std::optional<ErrorCode> errorCodeFromName(const QString& name);
/// Whether a plain retry of the same request can succeed for this code, absent more knowledge.
bool defaultRetryable(ErrorCode code);

/// A contract error: `{code, message, retryable, details}` (docs/protocol.md §3.3).
struct Error
{
    ErrorCode code = ErrorCode::InternalError;
    QString message;
    bool retryable = false;
    QJsonObject details;

    static Error make(ErrorCode code, const QString& message, QJsonObject details = {});
    /// DESKTOP_INVALID_REQUEST with the JSON-RPC number in details.jsonrpcCode.
    static Error invalidRequest(const QString& message, int jsonrpcCode, QJsonObject details = {});
    /// DESKTOP_INVALID_REQUEST for a missing or mistyped field (-32602), naming the field.
    static Error invalidParam(const QString& field, const QString& message);

    Error& withRetryable(bool value)
    {
        retryable = value;
        return *this;
    }
    Error& withDetail(const QString& key, const QJsonValue& value);
    QJsonObject toJson() const;
    static std::optional<Error> fromJson(const QJsonObject& object);
};

/// Either a value or a contract error. (std::expected arrives with C++23.)
template <typename T> class Result
{
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_data(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_data); }
    const T& value() const { return std::get<0>(m_data); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

/// Result for operations that return nothing but may fail.
struct Done
{
};
using Status = Result<Done>;
inline Status success()
{
    return Status(Done{});
}

} // namespace Automation
