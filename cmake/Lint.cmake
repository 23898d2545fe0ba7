# Lint, as ctest entries (label "lint") and build targets:
#   Lint.Format  every C++ file git tracks (.cpp, .h, .mm) is formatted as clang-format 14 (Debian 12's,
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

# Lint.Format and the format target cover every C++ file git tracks (`git ls-files '*.cpp' '*.h'
# '*.mm'`, read when the test runs, so a new file is covered without reconfiguring); outside a
# git checkout, every such file of the tree.
find_program(MDH_GIT NAMES git)
if(MDH_GIT AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
    set(mdh_format_command sh -c "git ls-files -z -- '*.cpp' '*.h' '*.mm' | xargs -0 \"$0\" \"$@\"")
else()
    set(mdh_format_command sh -c "find . -path ./build -prune -o \\( -name '*.cpp' -o -name '*.h' -o -name '*.mm' \\) -print0 | xargs -0 \"$0\" \"$@\"")
endif()

if(MDH_CLANG_FORMAT)
    add_custom_target(format
        COMMAND ${mdh_format_command} ${MDH_CLANG_FORMAT} -i
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
        COMMENT "clang-format 14 over the tree"
        VERBATIM)
    if(MDH_BUILD_TESTS)
        add_test(NAME Lint.Format
            COMMAND ${mdh_format_command} ${MDH_CLANG_FORMAT} --dry-run --Werror
            WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
        set_tests_properties(Lint.Format PROPERTIES RUN_SERIAL TRUE LABELS lint TIMEOUT 300)
    endif()
else()
    message(STATUS "clang-format-14 not found: no format target, no Lint.Format (scripts/setup installs it)")
endif()

if(MDH_BUILD_TESTS AND MDH_CLANG_TIDY AND MDH_RUN_CLANG_TIDY)
    cmake_host_system_information(RESULT mdh_cores QUERY NUMBER_OF_LOGICAL_CORES)
    # The compile commands without the precompiled header, which clang-tidy cannot read.
    add_test(NAME Lint.Tidy
        COMMAND sh -c "/usr/bin/python3 \"$0\" \"$1/compile_commands.json\" \"$1/tidy\" && exec \"$2\" -quiet -clang-tidy-binary \"$3\" -p \"$1/tidy\" -j \"$4\" \"$5\""
                ${PROJECT_SOURCE_DIR}/cmake/tidy-compile-db.py ${CMAKE_BINARY_DIR} ${MDH_RUN_CLANG_TIDY} ${MDH_CLANG_TIDY}
                ${mdh_cores} "${PROJECT_SOURCE_DIR}/(app|automation|bridge|cli|client-kit|evidence-viewer|inspector|mcp|remote)/.*\\.cpp$"
        WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(Lint.Tidy PROPERTIES RUN_SERIAL TRUE LABELS lint TIMEOUT 1800)
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
        set_tests_properties(Lint.${mdh_check_name} PROPERTIES RUN_SERIAL TRUE LABELS lint TIMEOUT 600
            ENVIRONMENT "MACOS_SDK=$ENV{MACOS_SDK}")
    endforeach()
elseif(MDH_BUILD_TESTS)
    message(STATUS "MACOS_SDK is not set: no Lint.Macos* entries (docs/macos.md says how to get an SDK)")
endif()
