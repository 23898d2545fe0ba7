#pragma once

// Shared by the fuzz targets (docs/testing.md): an invariant that does not hold aborts, so
// libFuzzer (or the replay driver under ctest) reports the input that broke it.

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace FuzzSupport {

[[noreturn]] inline void fail(const char* file, int line, const char* condition, const QByteArray& detail)
{
    std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", file, line, condition);
    if (!detail.isEmpty())
        std::fprintf(stderr, "  %s\n", detail.constData());
    std::fflush(stderr);
    std::abort();
}

inline QByteArray describe(const QString& text)
{
    return text.toUtf8();
}

inline QByteArray describe(const QByteArray& bytes)
{
    return bytes.toPercentEncoding(" /:.,{}[]\"'=-_");
}

inline QByteArray describe(const char* text)
{
    return QByteArray(text);
}

} // namespace FuzzSupport

/// MDH_FUZZ_CHECK(condition): abort with the condition's text when it does not hold.
#define MDH_FUZZ_CHECK(condition)                                                                                      \
    do {                                                                                                               \
        if (!(condition))                                                                                              \
            ::FuzzSupport::fail(__FILE__, __LINE__, #condition, {});                                                   \
    } while (false)

/// MDH_FUZZ_CHECK_MSG(condition, detail): the same, printing `detail` (QString, QByteArray or C string).
#define MDH_FUZZ_CHECK_MSG(condition, detail)                                                                          \
    do {                                                                                                               \
        if (!(condition))                                                                                              \
            ::FuzzSupport::fail(__FILE__, __LINE__, #condition, ::FuzzSupport::describe(detail));                      \
    } while (false)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
