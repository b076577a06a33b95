# profdiff_warnings: an INTERFACE target carrying our warning flags. Only our own targets link it,
# so third_party code never gets -Werror (the simdjson idea of a separate warnings target).
add_library(profdiff_warnings INTERFACE)
target_compile_options(profdiff_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow)
if(PROFDIFF_WERROR)
  target_compile_options(profdiff_warnings INTERFACE -Werror)
endif()

if(PROFDIFF_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(PROFDIFF_FUZZ)
  # Every object gets coverage instrumentation; only fuzz targets link the libFuzzer main.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# profdiff_module(NAME DEPS...) - one library per module; sources are src/<module>/*.cc.
function(profdiff_module name)
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cc)
  add_library(profdiff_${name} STATIC ${_srcs})
  target_include_directories(profdiff_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(profdiff_${name} PRIVATE profdiff_warnings PUBLIC ${ARGN})
endfunction()
