#pragma once

// Printers and small helpers shared by the unit tests: readable gtest failure messages for Qt
// types and contract errors, and JSON built from literal text so each table reads like the wire.

#include "automation/Error.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <gtest/gtest.h>

#include <ostream>

// gtest finds these by argument-dependent lookup (Qt's types live in the global namespace).
// Without them it would print QString and QJsonObject element by element, or as raw bytes.
inline void PrintTo(const QString& value, std::ostream* os)
{
    *os << '"' << value.toStdString() << '"';
}

inline void PrintTo(const QByteArray& value, std::ostream* os)
{
    *os << '"' << value.toStdString() << '"';
}

inline void PrintTo(const QJsonObject& value, std::ostream* os)
{
    *os << QJsonDocument(value).toJson(QJsonDocument::Compact).toStdString();
}

inline void PrintTo(const QJsonArray& value, std::ostream* os)
{
    *os << QJsonDocument(value).toJson(QJsonDocument::Compact).toStdString();
}

inline void PrintTo(const QJsonValue& value, std::ostream* os)
{
    // Wrap in an array: QJsonDocument holds only objects and arrays.
    *os << QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact).toStdString();
}

inline void PrintTo(const QStringList& value, std::ostream* os)
{
    *os << QJsonDocument(QJsonArray::fromStringList(value)).toJson(QJsonDocument::Compact).toStdString();
}

namespace Automation {

inline void PrintTo(ErrorCode code, std::ostream* os)
{
    *os << errorCodeName(code).toStdString();
}

inline void PrintTo(const Error& error, std::ostream* os)
{
    *os << QJsonDocument(error.toJson()).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace Automation

namespace UnitTest {

/// Parses JSON text written in a test; a typo in the test itself fails loudly.
inline QJsonValue jsonValue(const char* text)
{
    QJsonParseError error{};
    // Wrapped in an array so any JSON value, scalars included, can be written.
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArrayLiteral("[") + QByteArray(text) + QByteArrayLiteral("]"), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << "bad JSON in the test: " << text;
    return doc.array().at(0);
}

inline QJsonObject jsonObject(const char* text)
{
    const QJsonValue value = jsonValue(text);
    EXPECT_TRUE(value.isObject()) << "not a JSON object in the test: " << text;
    return value.toObject();
}

/// Sorted member names, to assert an object's exact shape.
inline QStringList keysOf(const QJsonObject& object)
{
    QStringList keys = object.keys();
    keys.sort();
    return keys;
}

/// Asserts the error every parser gives for a bad field: DESKTOP_INVALID_REQUEST, not retryable,
/// JSON-RPC -32602 and the field's full path in details.field.
inline void expectInvalidParam(const Automation::Error& error, const QString& field)
{
    EXPECT_EQ(error.code, Automation::ErrorCode::InvalidRequest) << error.message.toStdString();
    EXPECT_FALSE(error.retryable);
    EXPECT_EQ(error.details.value(QStringLiteral("jsonrpcCode")), QJsonValue(-32602));
    EXPECT_EQ(error.details.value(QStringLiteral("field")).toString(), field) << error.message.toStdString();
    EXPECT_FALSE(error.message.isEmpty());
}

/// gtest parameter names from a row's `name` member.
struct RowName
{
    template <typename Info> std::string operator()(const Info& info) const { return info.param.name; }
};

} // namespace UnitTest
