# `cmake --install`: the layout find_package(tf) reads
# (docs/using-tf-in-your-project.md).
#
#   <prefix>/include/tf/...                the header library and the runtime headers
#   <prefix>/bin/tf                        the command-line tool
#   <prefix>/bin/tf-clangd                 clangd with the plugin loaded
#   <prefix>/lib/tf.so                     the plugin
#   <prefix>/share/tf/targets/...          the target facts (found from tf and tf.so)
#   <prefix>/lib/cmake/tf/                 tfConfig.cmake, tfConfigVersion.cmake,
#                                          tfTargets.cmake, TfKernels.cmake
include(CMakePackageConfigHelpers)

install(DIRECTORY include/ runtime/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS tf_headers tf_runtime EXPORT tfTargets)

if(TF_BUILD_PLUGIN)
  # Installed, the tool still finds the Clang/LLVM libraries it was linked to.
  set_target_properties(tf tf_plugin PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS tf EXPORT tfTargets)
  # tf-clangd, the clangd launcher, beside tf; it finds tf.so relative to itself.
  install(PROGRAMS ${PROJECT_BINARY_DIR}/${CMAKE_INSTALL_BINDIR}/tf-clangd
          DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(TARGETS tf_plugin EXPORT tfTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY targets/ DESTINATION ${TF_INSTALL_DATADIR}/targets)
  install(FILES cmake/TfKernels.cmake DESTINATION ${TF_INSTALL_CMAKEDIR})
  # The installed tfConfig.cmake defaults TF_CLANGXX to the Clang tf was built with.
  set(TF_CONFIG_CLANGXX ${TF_CLANGXX})
endif()

install(EXPORT tfTargets NAMESPACE tf:: DESTINATION ${TF_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/tfConfig.cmake.in tfConfig.cmake
                              INSTALL_DESTINATION ${TF_INSTALL_CMAKEDIR})
# 0.x: a minor version may break; 0.1.2 satisfies find_package(tf 0.1).
write_basic_package_version_file(tfConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tfConfig.cmake ${PROJECT_BINARY_DIR}/tfConfigVersion.cmake
        DESTINATION ${TF_INSTALL_CMAKEDIR})
