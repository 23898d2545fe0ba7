#include <QCoreApplication>
#include <QLoggingCategory>
#ifdef MDH_TEST_GUI
#include <QApplication>
#endif

#include <gtest/gtest.h>

// One main for every test binary: a Qt application object first (Qt::Test helpers, sockets and
// timers need one), then GoogleTest. MDH_TEST_GUI selects QApplication for tests that need it.
int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("msgcode.*.debug=false\nmsgcode.*.info=false"));
#ifdef MDH_TEST_GUI
    QApplication app(argc, argv);
#else
    QCoreApplication app(argc, argv);
#endif
    return RUN_ALL_TESTS();
}
