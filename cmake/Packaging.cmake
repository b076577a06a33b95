# Install rules and the Debian package (cmake --install, cpack -G DEB).
#
#   bin/profdiff
#   share/man/man1/profdiff.1.gz                  generated from the built binary's --help texts
#   share/bash-completion/completions/profdiff    packaging/bash-completion/profdiff
#   share/doc/profdiff/                           README.md, LICENSE, docs/ (reference pages included)
#
# The .deb's Depends comes from dpkg-shlibdeps (Debian's dpkg-dev) on the installed binary, so it
# names exactly the runtime libraries it links; tests/install/ checks it and the file list.
include(GNUInstallDirs)

set(_man ${PROJECT_BINARY_DIR}/man/profdiff.1)
add_custom_command(
  OUTPUT ${_man}.gz
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
  COMMAND sh ${PROJECT_SOURCE_DIR}/packaging/make-manpage.sh $<TARGET_FILE:profdiff> ${_man}
  COMMAND gzip -9 -n -f ${_man}
  DEPENDS profdiff ${PROJECT_SOURCE_DIR}/packaging/make-manpage.sh
  COMMENT "Generating the profdiff(1) man page from --help"
  VERBATIM)
add_custom_target(profdiff_manpage ALL DEPENDS ${_man}.gz)

install(TARGETS profdiff RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${_man}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/bash-completion/profdiff
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME profdiff)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "compare two ML training profiles and explain why one run is slower")
set(CPACK_PACKAGE_DESCRIPTION
    "profdiff compares a PyTorch/Kineto GPU trace or an Ascend NPU profile with another and splits the
difference in step time into computing, uncovered communication and free time, matches operators,
modules, kernels, communication, memory and API calls between the runs, and writes a workbook, a
JSON result, CSV files and a CI verdict. It reproduces msprof-analyze compare's numbers on request
(--reference-compat).")
set(CPACK_PACKAGE_CONTACT "profdiff authors <profdiff@users.noreply.github.com>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # profdiff_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion, man-db")
include(CPack)
