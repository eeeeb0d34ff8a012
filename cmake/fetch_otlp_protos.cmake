# cmake -DLOCK=<otlp_protos.lock> -DWORK=<dir> -DOUT=<dir> -P fetch_otlp_protos.cmake
# Fetches the pinned npm tarball (or reuses one already in WORK), refuses it
# unless its SHA-512 matches the lock file, and extracts only the .proto
# files into OUT. A mismatch is fatal: protos we did not pin never compile.
# The same for any pinned npm package: a lock with DIR= and PATTERN= (e.g.
# cmake/semconv.lock) extracts DIR/PATTERN instead.
foreach(var LOCK WORK OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "fetch_otlp_protos: -D${var}= is required")
  endif()
endforeach()

file(STRINGS ${LOCK} lines REGEX "^[A-Z0-9_]+=")
foreach(line IN LISTS lines)
  string(REGEX MATCH "^([A-Z0-9_]+)=(.*)$" _ "${line}")
  set(LOCK_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
endforeach()

if(NOT DEFINED LOCK_DIR)
  set(LOCK_DIR "${LOCK_PROTO_DIR}")
  set(LOCK_PATTERN "*.proto")
endif()

file(MAKE_DIRECTORY ${WORK})
set(tarball ${WORK}/${LOCK_TARBALL})

function(sha512_of path out)
  if(EXISTS ${path})
    file(SHA512 ${path} sum)
  else()
    set(sum "")
  endif()
  set(${out} "${sum}" PARENT_SCOPE)
endfunction()

sha512_of(${tarball} actual)
if(NOT actual STREQUAL LOCK_SHA512)
  find_program(NPM npm)
  if(NOT NPM)
    message(FATAL_ERROR "npm is needed once to fetch ${LOCK_PACKAGE}; "
                        "install npm, or configure with -DJVMSIGHT_OTLP=OFF")
  endif()
  message(STATUS "Fetching ${LOCK_PACKAGE}")
  execute_process(COMMAND ${NPM} pack ${LOCK_PACKAGE} --silent
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npm pack ${LOCK_PACKAGE} failed: ${err}")
  endif()
  sha512_of(${tarball} actual)
  if(NOT actual STREQUAL LOCK_SHA512)
    file(REMOVE ${tarball})
    message(FATAL_ERROR "${LOCK_TARBALL}: SHA-512 ${actual} does not match the pinned "
                        "${LOCK_SHA512} (${LOCK}); refusing it")
  endif()
endif()

set(extract ${WORK}/extract)
file(REMOVE_RECURSE ${extract})
file(MAKE_DIRECTORY ${extract})
file(ARCHIVE_EXTRACT INPUT ${tarball} DESTINATION ${extract} PATTERNS "${LOCK_DIR}/${LOCK_PATTERN}")
file(GLOB protos ${extract}/${LOCK_DIR}/${LOCK_PATTERN})
if(NOT protos)
  message(FATAL_ERROR "${LOCK_TARBALL} has no ${LOCK_PATTERN} files under ${LOCK_DIR}")
endif()
file(MAKE_DIRECTORY ${OUT})
file(COPY ${protos} DESTINATION ${OUT})
file(REMOVE_RECURSE ${extract})
