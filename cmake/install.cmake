# `cmake --install` (and `make install PREFIX=... DESTDIR=...`): the binary, the systemd unit, the
# operator documentation and the licences (LICENSE, and NOTICE for the data the binary embeds).
# The unit names the installed binary, so it is written at install time, when the prefix is final
# (cmake --install --prefix may differ from the configured one).
include(GNUInstallDirs)
install(TARGETS bulwark RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES README.md LICENSE NOTICE docs/operations.md docs/architecture.md docs/openapi.json
              docs/deploy/nginx.conf packaging/bulwark.env.example
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(CODE "
  file(READ \"${CMAKE_SOURCE_DIR}/packaging/systemd/bulwark.service\" unit)
  string(REPLACE \"@BULWARK_BINDIR@\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\" unit \"\${unit}\")
  string(REPLACE \"@BULWARK_DOCDIR@\" \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}\" unit \"\${unit}\")
  file(WRITE \"${CMAKE_BINARY_DIR}/bulwark.service\" \"\${unit}\")
  file(INSTALL \"${CMAKE_BINARY_DIR}/bulwark.service\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\"
       PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
")
