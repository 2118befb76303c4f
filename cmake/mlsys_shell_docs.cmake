# Writes the shell completion scripts and the man page that the mlsys binary generates from its
# command table: cmake -DMLSYS=<binary> -DOUT=<folder> -P mlsys_shell_docs.cmake
file(MAKE_DIRECTORY ${OUT})
function(generate name)
  execute_process(COMMAND ${MLSYS} ${ARGN} OUTPUT_FILE ${OUT}/${name} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mlsys ${ARGN} failed (${rc})")
  endif()
endfunction()
generate(mlsys.bash completion bash)
generate(_mlsys completion zsh)
generate(mlsys.1 man)
