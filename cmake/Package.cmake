# Debian packages: `cpack -G DEB` in the build folder writes
#   utf8guard_<version>_<arch>.deb   the library, headers, CLI, manual and
#                                    package files (components Runtime and
#                                    Development)
#   libnginx-mod-http-utf8guard_<version>_<arch>.deb
#                                    the nginx module and its load_module
#                                    snippet (component Nginx), enabled in
#                                    /etc/nginx/modules-enabled as Debian's
#                                    own module packages do (nginx/debian/)
# installed under /usr (docs/packaging.md).
if(NOT UTF8GUARD_INSTALL)
  return()
endif()

set(CPACK_PACKAGE_NAME utf8guard)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "utf8guard developers <${PROJECT_HOMEPAGE_URL}>")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)

set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_COMPONENT_RUNTIME_GROUP utf8guard)
set(CPACK_COMPONENT_DEVELOPMENT_GROUP utf8guard)
set(CPACK_DEBIAN_UTF8GUARD_PACKAGE_NAME utf8guard)
set(CPACK_DEBIAN_UTF8GUARD_DESCRIPTION
    "Strict, fast UTF-8 validation: library, headers and the utf8guard tool")
set(CPACK_COMPONENTS_ALL Runtime Development)

if(TARGET ngx_http_utf8guard_module)
  set(CPACK_COMPONENT_NGINX_GROUP nginx)
  set(CPACK_DEBIAN_NGINX_PACKAGE_NAME libnginx-mod-http-utf8guard)
  set(CPACK_DEBIAN_NGINX_PACKAGE_SECTION httpd)
  set(CPACK_DEBIAN_NGINX_DESCRIPTION
      "nginx module that blocks ill-formed and unwanted UTF-8 in requests")
  # The nginx ABI the module was built for, as Debian's module packages
  # depend on it (nginx-dev records it).
  set(abi_file ${UTF8GUARD_NGINX_SRC}/debian/libnginx-mod.abisubstvars)
  set(nginx_abi "")
  if(EXISTS ${abi_file})
    file(STRINGS ${abi_file} abi_line REGEX "^nginx:abi=")
    string(REGEX REPLACE "^nginx:abi=" "" nginx_abi "${abi_line}")
  endif()
  if(nginx_abi)
    set(CPACK_DEBIAN_NGINX_PACKAGE_DEPENDS "${nginx_abi}")
  endif()
  set(CPACK_DEBIAN_NGINX_PACKAGE_CONTROL_EXTRA
      ${PROJECT_SOURCE_DIR}/nginx/debian/postinst ${PROJECT_SOURCE_DIR}/nginx/debian/prerm
      ${PROJECT_SOURCE_DIR}/nginx/debian/postrm)
  list(APPEND CPACK_COMPONENTS_ALL Nginx)
endif()

include(CPack)
