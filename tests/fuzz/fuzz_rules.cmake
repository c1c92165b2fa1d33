# The fuzz preset builds with clang, whose warnings differ from the gcc builds that enforce
# -Werror; here a clang-only warning must not stop the search for crashes, so warnings stay
# warnings (-Wno-error comes last on every compile line).
set(CMAKE_C_COMPILE_OBJECT "<CMAKE_C_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -Wno-error -o <OBJECT> -c <SOURCE>")
set(CMAKE_CXX_COMPILE_OBJECT "<CMAKE_CXX_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -Wno-error -o <OBJECT> -c <SOURCE>")
