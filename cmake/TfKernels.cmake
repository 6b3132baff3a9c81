# tf_add_kernels(TARGET SOURCES file.cpp... DEVICE nvidia.h200_sxm)
#
# Builds the CUDA backend's code for the tf kernels in SOURCES into TARGET
# (docs/backend-cuda.md): for each source, clang++ with the tf plugin and
# -fplugin-arg-tf-emit writes <stem>.tf.cu (with TARGET's include
# directories and definitions), nvcc compiles it for DEVICE's architecture,
# and the object is linked into TARGET with the CUDA runtime. TARGET must
# also compile the sources themselves (they define the kernels whose
# addresses the launchers are registered under); tf::launch then runs them
# on the GPU. Needs the CUDA toolkit (find_package(CUDAToolkit)).
#
# Tested by test/gpu/CMakeLists.txt (gpu-cmake-example).

set(TF_CLANGXX ${TF_LLVM_ROOT}/bin/clang++ CACHE FILEPATH
    "clang++ that runs the tf plugin for tf_add_kernels")

# The nvcc architecture of each device tf_add_kernels knows.
set(_tf_arch_nvidia.h200_sxm "-gencode=arch=compute_90a,code=sm_90a")
set(_tf_arch_nvidia.h100_sxm "-gencode=arch=compute_90a,code=sm_90a")

function(tf_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 TF "" "DEVICE" "SOURCES")
  if(NOT TF_SOURCES OR NOT TF_DEVICE)
    message(FATAL_ERROR "tf_add_kernels(${target} SOURCES ... DEVICE ...): "
                        "both SOURCES and DEVICE are needed")
  endif()
  if(NOT DEFINED _tf_arch_${TF_DEVICE})
    message(FATAL_ERROR "tf_add_kernels: no CUDA backend for device "
                        "'${TF_DEVICE}' (known: nvidia.h200_sxm, nvidia.h100_sxm)")
  endif()
  find_package(CUDAToolkit REQUIRED)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}.tf)
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  foreach(source IN LISTS TF_SOURCES)
    get_filename_component(path ${source} ABSOLUTE)
    get_filename_component(stem ${source} NAME_WE)
    set(cu ${dir}/${stem}.tf.cu)
    set(object ${dir}/${stem}.tf.o)
    add_custom_command(
      OUTPUT ${cu}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${TF_CLANGXX} -std=c++20 -fsyntax-only
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
              -I${PROJECT_SOURCE_DIR}/include
              -fplugin=$<TARGET_FILE:tf_plugin> -fplugin-arg-tf-emit=${dir}
              ${path}
      DEPENDS ${path} tf_plugin
      IMPLICIT_DEPENDS CXX ${path}
      COMMENT "tf: emitting CUDA for ${source}"
      COMMAND_EXPAND_LISTS VERBATIM)
    add_custom_command(
      OUTPUT ${object}
      COMMAND ${CUDAToolkit_NVCC_EXECUTABLE} -std=c++20 -O3 ${_tf_arch_${TF_DEVICE}}
              -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/runtime/include
              -c ${cu} -o ${object}
      DEPENDS ${cu}
      COMMENT "tf: nvcc ${stem}.tf.cu for ${TF_DEVICE}"
      VERBATIM)
    target_sources(${target} PRIVATE ${object})
    set_source_files_properties(${object} PROPERTIES EXTERNAL_OBJECT TRUE
                                                     GENERATED TRUE)
  endforeach()
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${target} PRIVATE CUDA::cudart)
endfunction()
