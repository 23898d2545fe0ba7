# One Fuzz.<Target> smoke test (docs/testing.md), run as `cmake -P`:
#   -DFUZZER=<libFuzzer binary> -DCORPUS=<seed corpus dir> -DDICT=<dictionary or empty>
#   -DSECONDS=<budget> -DARTIFACTS=<prefix for crash files>
# The fuzzer works on a copy of the seed corpus in a temporary directory, so the repository is
# never written; any crash, leak, timeout or out-of-memory fails the test, and so does a missing
# binary (MDH_FUZZER_DIR set but the fuzzers not built).
cmake_minimum_required(VERSION 3.25)

if(NOT EXISTS "${FUZZER}")
    message(FATAL_ERROR "Fuzz: ${FUZZER} does not exist; build the asan preset (clang) first, "
                        "or configure without MDH_FUZZER_DIR")
endif()

set(tmp "$ENV{TMPDIR}")
if(NOT tmp)
    set(tmp "/tmp")
endif()
string(RANDOM LENGTH 10 suffix)
get_filename_component(name "${FUZZER}" NAME)
set(work "${tmp}/${name}-smoke-${suffix}")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}/corpus" "${work}/tmp")
file(GLOB seeds "${CORPUS}/*")
if(seeds)
    file(COPY ${seeds} DESTINATION "${work}/corpus")
endif()
get_filename_component(artifact_dir "${ARTIFACTS}" DIRECTORY)
file(MAKE_DIRECTORY "${artifact_dir}")

set(args -max_total_time=${SECONDS} -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
         -artifact_prefix=${ARTIFACTS}-)
if(DICT)
    list(APPEND args -dict=${DICT})
endif()
# Fuzzers that need scratch files make them under TMPDIR: inside the work directory.
set(ENV{TMPDIR} "${work}/tmp")
execute_process(COMMAND "${FUZZER}" ${args} "${work}/corpus" RESULT_VARIABLE status)
file(REMOVE_RECURSE "${work}")
if(NOT status EQUAL 0)
    message(FATAL_ERROR "Fuzz: ${name} failed (${status}); the input is saved as ${ARTIFACTS}-*. "
                        "Reproduce with: ${FUZZER} <that file>")
endif()
