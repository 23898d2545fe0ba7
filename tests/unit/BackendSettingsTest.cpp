// The backend settings as the host sends them (JSON), read into their typed form.
#include "automation/BackendSettings.h"

#include <gtest/gtest.h>

using Automation::BackendSettings;

TEST(BackendSettings, ReadsWhatIsGivenAndLeavesTheRestUnset)
{
    const auto both = BackendSettings::fromJson(
        QJsonObject{{QStringLiteral("cmdKey"), QStringLiteral("super")}, {QStringLiteral("pngCompression"), 9}});
    EXPECT_EQ(both.cmdKey, BackendSettings::CmdKey::Super);
    EXPECT_EQ(both.pngCompression, 9);

    const auto ctrl = BackendSettings::fromJson(QJsonObject{{QStringLiteral("cmdKey"), QStringLiteral("ctrl")}});
    EXPECT_EQ(ctrl.cmdKey, BackendSettings::CmdKey::Control);
    EXPECT_FALSE(ctrl.pngCompression);

    const auto odd = BackendSettings::fromJson(QJsonObject{{QStringLiteral("cmdKey"), QStringLiteral("meta")},
                                                           {QStringLiteral("pngCompression"), QStringLiteral("9")},
                                                           {QStringLiteral("other"), true}});
    EXPECT_FALSE(odd.cmdKey);
    EXPECT_FALSE(odd.pngCompression);

    EXPECT_EQ(BackendSettings::fromJson(QJsonObject{{QStringLiteral("pngCompression"), 42}}).pngCompression, 9);
    EXPECT_EQ(BackendSettings::fromJson(QJsonObject{{QStringLiteral("pngCompression"), -5}}).pngCompression, -1);
}
