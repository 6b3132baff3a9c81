# tf_check_kernels and tf_add_kernels: a target's tf kernels through the
# plugin, from tf's own build, an add_subdirectory(tf) or an installation
# (find_package(tf), which includes this file). They need the targets
# tf::plugin and tf::headers (tf::runtime for tf_add_kernels) and TF_CLANGXX,
# the Clang the plugin was built for.
#
# tf_check_kernels(TARGET SOURCES file.cpp... [PLUGIN_ARGS arg...])
#
#   Checks the kernels in SOURCES with the plugin (clang++ -fsyntax-only
#   -fplugin=tf.so, with TARGET's include directories and definitions) as
#   part of building TARGET, whatever compiler TARGET itself uses: a contract
#   violation fails the build with tf's diagnostic. PLUGIN_ARGS are passed as
#   -fplugin-arg-tf-<arg> (docs/plugin.md), e.g. Werror=capacity.
#
# tf_add_kernels(TARGET SOURCES file.cpp... DEVICE nvidia.h200_sxm
#                [PLUGIN_ARGS arg...])
#
#   Builds the CUDA backend's code for the kernels in SOURCES into TARGET
#   (docs/backend-cuda.md): for each source the plugin checks it and writes
#   <stem>.tf.cu (-fplugin-arg-tf-emit), nvcc compiles that for DEVICE's
#   architecture, and the object is linked into TARGET with the CUDA runtime.
#   TARGET must also compile the sources themselves (they define the kernels
#   whose addresses the launchers are registered under); tf::launch then runs
#   them on the GPU. Needs the CUDA toolkit (find_package(CUDAToolkit)).
#
# Tested by test/gpu/CMakeLists.txt (gpu-cmake-example) and test/adoption/.

# The nvcc architecture of each device tf_add_kernels knows.
set(_tf_arch_nvidia.h200_sxm "-gencode=arch=compute_90a,code=sm_90a")
set(_tf_arch_nvidia.h100_sxm "-gencode=arch=compute_90a,code=sm_90a")

# The custom command that runs the plugin on SOURCE for TARGET (its include
# directories and definitions) and makes OUTPUT: a file the plugin writes, or
# with STAMP a file touched once the check passed. PLUGIN_ARGS without
# -fplugin-arg-tf-.
function(_tf_run_plugin)
  cmake_parse_arguments(PARSE_ARGV 0 RUN "STAMP" "TARGET;SOURCE;OUTPUT;COMMENT" "PLUGIN_ARGS")
  # In tf's own build and under add_subdirectory the plugin is built here:
  # depend on its target; an installed one is a file.
  get_target_property(plugin tf::plugin ALIASED_TARGET)
  if(NOT plugin)
    set(plugin $<TARGET_FILE:tf::plugin>)
  endif()
  get_filename_component(path ${RUN_SOURCE} ABSOLUTE)
  get_filename_component(dir ${RUN_OUTPUT} DIRECTORY)
  set(includes "$<TARGET_PROPERTY:${RUN_TARGET},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${RUN_TARGET},COMPILE_DEFINITIONS>")
  list(TRANSFORM RUN_PLUGIN_ARGS PREPEND -fplugin-arg-tf- OUTPUT_VARIABLE plugin_args)
  if(RUN_STAMP)
    set(touch COMMAND ${CMAKE_COMMAND} -E touch ${RUN_OUTPUT})
  endif()
  add_custom_command(
    OUTPUT ${RUN_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${TF_CLANGXX} -std=c++20 -fsyntax-only
            "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
            "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
            -MD -MF ${RUN_OUTPUT}.d -MT ${RUN_OUTPUT}
            -fplugin=$<TARGET_FILE:tf::plugin> ${plugin_args} ${path}
    ${touch}
    DEPENDS ${path} ${plugin}
    # The headers the source includes: a changed header runs the plugin again.
    DEPFILE ${RUN_OUTPUT}.d
    COMMENT "${RUN_COMMENT}"
    COMMAND_EXPAND_LISTS VERBATIM)
endfunction()

function(tf_check_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TF "" "" "SOURCES;PLUGIN_ARGS")
  if(NOT TF_SOURCES)
    message(FATAL_ERROR "tf_check_kernels(${target} SOURCES ...): SOURCES is needed")
  endif()
  target_link_libraries(${target} PRIVATE tf::headers)
  foreach(source IN LISTS TF_SOURCES)
    get_filename_component(stem ${source} NAME_WE)
    set(stamp ${CMAKE_CURRENT_BINARY_DIR}/${target}.tf/${stem}.tf.checked)
    _tf_run_plugin(TARGET ${target} SOURCE ${source} OUTPUT ${stamp} STAMP
                   PLUGIN_ARGS ${TF_PLUGIN_ARGS}
                   COMMENT "tf: checking the kernels of ${source}")
    # A source of TARGET: TARGET is built only once the check passed.
    target_sources(${target} PRIVATE ${stamp})
  endforeach()
endfunction()

function(tf_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TF "" "DEVICE" "SOURCES;PLUGIN_ARGS")
  if(NOT TF_SOURCES OR NOT TF_DEVICE)
    message(FATAL_ERROR "tf_add_kernels(${target} SOURCES ... DEVICE ...): "
                        "both SOURCES and DEVICE are needed")
  endif()
  if(NOT DEFINED _tf_arch_${TF_DEVICE})
    message(FATAL_ERROR "tf_add_kernels: no CUDA backend for device "
                        "'${TF_DEVICE}' (known: nvidia.h200_sxm, nvidia.h100_sxm)")
  endif()
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(${target} PRIVATE tf::headers CUDA::cudart)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.tf)
  set(runtime_includes "$<TARGET_PROPERTY:tf::runtime,INTERFACE_INCLUDE_DIRECTORIES>")
  foreach(source IN LISTS TF_SOURCES)
    get_filename_component(stem ${source} NAME_WE)
    set(cu ${dir}/${stem}.tf.cu)
    set(object ${dir}/${stem}.tf.o)
    _tf_run_plugin(TARGET ${target} SOURCE ${source} OUTPUT ${cu}
                   PLUGIN_ARGS emit=${dir} ${TF_PLUGIN_ARGS}
                   COMMENT "tf: emitting CUDA for ${source}")
    add_custom_command(
      OUTPUT ${object}
      COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -std=c++20 -O3 ${_tf_arch_${TF_DEVICE}}
              "-I$<JOIN:$<REMOVE_DUPLICATES:${runtime_includes}>,;-I>" -c ${cu} -o ${object}
      DEPENDS ${cu}
      COMMENT "tf: nvcc ${stem}.tf.cu for ${TF_DEVICE}"
      COMMAND_EXPAND_LISTS VERBATIM)
    target_sources(${target} PRIVATE ${object})
    set_source_files_properties(${object} PROPERTIES EXTERNAL_OBJECT TRUE
                                                     GENERATED TRUE)
  endforeach()
endfunction()
