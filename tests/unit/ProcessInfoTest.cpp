// The platform's process facts (automation/platform/ProcessInfo_<os>.cpp).
#include "automation/platform/ProcessInfo.h"

#include <QCoreApplication>

#include <gtest/gtest.h>

using namespace Automation::Platform;

TEST(ProcessInfo, ThisProcessRunsAndADeadPidIsGone)
{
    const qint64 self = QCoreApplication::applicationPid();
    EXPECT_EQ(processState(self), ProcessState::Running);
    EXPECT_TRUE(processAlive(self));
    EXPECT_FALSE(processExecutable(self).isEmpty());
    EXPECT_GT(processStartTime(self), 0u);
    const auto credentials = processCredentials(self);
    ASSERT_TRUE(credentials);
    EXPECT_EQ(credentials->pid, self);
    EXPECT_GE(credentials->uid, 0);

    const qint64 none = 0x7ffffff0; // above pid_max
    EXPECT_EQ(processState(none), ProcessState::Gone);
    EXPECT_FALSE(processAlive(none));
    EXPECT_FALSE(processCredentials(none));
    EXPECT_FALSE(socketPeer(-1));
}
