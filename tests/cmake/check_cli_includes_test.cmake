# SPDX-License-Identifier: Apache-2.0
# cmake -P test of cmake/CheckCliIncludes.cmake (the direction rule): it passes on a clean tree,
# where cli/ and main.cpp include cli/, and fails on a tree where another folder does, naming the
# file, the line and the rule. Usage: -DSCRIPT=cmake/CheckCliIncludes.cmake -DWORK_DIR=<scratch>
file(REMOVE_RECURSE ${WORK_DIR})
set(src ${WORK_DIR}/src)
file(WRITE ${src}/main.cpp "#include \"cli/run.hpp\"\nint main(int argc, char** argv) { return 0; }\n")
file(WRITE ${src}/cli/run.cpp "#include \"cli/run.hpp\"\n#include \"forecasters/forecaster.hpp\"\n")
file(WRITE ${src}/forecasters/forecaster.cpp "// cli/ is mentioned here; [brackets]; and a\\\n#include \"forecasters/forecaster.hpp\"\n")

function(run_check expect_failure what)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${src} -P ${SCRIPT}
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(expect_failure AND result EQUAL 0)
    message(FATAL_ERROR "${what}: the check passed; it should have failed\n${output}")
  elseif(NOT expect_failure AND NOT result EQUAL 0)
    message(FATAL_ERROR "${what}: the check failed; it should have passed\n${output}")
  endif()
  set(output "${output}" PARENT_SCOPE)
endfunction()

run_check(FALSE "a clean tree")

file(WRITE ${src}/gate/pr_step.cpp "#include \"forecasters/forecaster.hpp\"\n// a; b\n\n  #  include <cli/options.hpp>\n")
file(WRITE ${src}/report/check_text.hpp "#pragma once\n#include \"cli/change_review.hpp\"\n")
run_check(TRUE "a tree where gate/ and report/ include cli/")
foreach(expected "src/gate/pr_step.cpp:4: includes cli" "src/report/check_text.hpp:2: includes cli"
                 "The direction rule is broken")
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the failure does not say \"${expected}\":\n${output}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
