# Lint, as ctest entries (label "lint") and build targets:
#   Lint.Format  every C++ file of the project is formatted as clang-format 14 (Debian 12's,
#                pinned: another version formats differently) does it with .clang-format;
#                `cmake --build --preset default --target format` reformats the tree.
#   Lint.Tidy    clang-tidy 14 with .clang-tidy over the production code (app, automation, remote,
#                bridge, cli); any finding fails it (docs/testing.md, "Lint").
#   Lint.MacosSdk, Lint.MacosLink, Lint.MacosXpcClient: scripts/check-macos against the macOS SDK
#                that MACOS_SDK names at configure time (docs/macos.md, "Checked from Linux"):
#                every source a Mac build compiles; the Apple-facing objects linked into Mach-O
#                for arm64 and x86_64; a client of msgcode's XPC selector compiled with -Werror.
#                No entries when it is unset (.ci/run sets it).
find_program(MDH_CLANG_FORMAT NAMES clang-format-14)
find_program(MDH_CLANG_TIDY NAMES clang-tidy-14)
find_program(MDH_RUN_CLANG_TIDY NAMES run-clang-tidy-14 run-clang-tidy)

file(GLOB_RECURSE mdh_format_sources CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
    ${PROJECT_SOURCE_DIR}/app/*.cpp ${PROJECT_SOURCE_DIR}/app/*.h
    ${PROJECT_SOURCE_DIR}/automation/*.cpp ${PROJECT_SOURCE_DIR}/automation/*.h ${PROJECT_SOURCE_DIR}/automation/*.mm
    ${PROJECT_SOURCE_DIR}/bridge/*.cpp ${PROJECT_SOURCE_DIR}/bridge/*.h
    ${PROJECT_SOURCE_DIR}/cli/*.cpp ${PROJECT_SOURCE_DIR}/cli/*.h
    ${PROJECT_SOURCE_DIR}/mcp/*.cpp ${PROJECT_SOURCE_DIR}/mcp/*.h
    ${PROJECT_SOURCE_DIR}/translations/*.cpp ${PROJECT_SOURCE_DIR}/translations/*.h
    ${PROJECT_SOURCE_DIR}/tests/*.cpp ${PROJECT_SOURCE_DIR}/tests/*.h
    ${PROJECT_SOURCE_DIR}/bench/*.cpp ${PROJECT_SOURCE_DIR}/bench/*.h)

if(MDH_CLANG_FORMAT)
    add_custom_target(format
        COMMAND ${MDH_CLANG_FORMAT} -i ${mdh_format_sources}
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        COMMENT "clang-format 14 over the tree"
        VERBATIM)
    if(MDH_BUILD_TESTS)
        add_test(NAME Lint.Format
            COMMAND ${MDH_CLANG_FORMAT} --dry-run --Werror ${mdh_format_sources}
            WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
        set_tests_properties(Lint.Format PROPERTIES LABELS lint TIMEOUT 300)
    endif()
else()
    message(STATUS "clang-format-14 not found: no format target, no Lint.Format (scripts/setup installs it)")
endif()

if(MDH_BUILD_TESTS AND MDH_CLANG_TIDY AND MDH_RUN_CLANG_TIDY)
    cmake_host_system_information(RESULT mdh_cores QUERY NUMBER_OF_LOGICAL_CORES)
    add_test(NAME Lint.Tidy
        COMMAND ${MDH_RUN_CLANG_TIDY} -quiet -clang-tidy-binary ${MDH_CLANG_TIDY} -p ${CMAKE_BINARY_DIR}
                -j ${mdh_cores} "${PROJECT_SOURCE_DIR}/(app|automation|bridge|cli|evidence-viewer|inspector|mcp|remote)/.*\\.cpp$"
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(Lint.Tidy PROPERTIES LABELS lint TIMEOUT 1800)
elseif(MDH_BUILD_TESTS)
    message(STATUS "clang-tidy-14 or run-clang-tidy not found: no Lint.Tidy (scripts/setup installs them)")
endif()

# Only where an SDK is named at configure time: a ctest entry that skips would print its skip
# after ctest's summary line, and one that passes without compiling anything would lie.
# scripts/test says plainly when there is none.
if(MDH_BUILD_TESTS AND DEFINED ENV{MACOS_SDK} AND NOT "$ENV{MACOS_SDK}" STREQUAL "")
    foreach(mdh_check IN ITEMS MacosSdk=compile MacosLink=link MacosXpcClient=xpc-client)
        string(REPLACE "=" ";" mdh_check "${mdh_check}")
        list(GET mdh_check 0 mdh_check_name)
        list(GET mdh_check 1 mdh_check_mode)
        add_test(NAME Lint.${mdh_check_name} COMMAND ${PROJECT_SOURCE_DIR}/scripts/check-macos ${mdh_check_mode}
            WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
        set_tests_properties(Lint.${mdh_check_name} PROPERTIES LABELS lint TIMEOUT 600
            ENVIRONMENT "MACOS_SDK=$ENV{MACOS_SDK}")
    endforeach()
elseif(MDH_BUILD_TESTS)
    message(STATUS "MACOS_SDK is not set: no Lint.Macos* entries (docs/macos.md says how to get an SDK)")
endif()
