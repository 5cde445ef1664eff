# bulwark in a container: built on Debian bookworm, run on bookworm-slim with only the runtime
# libraries, as a non-root user, data in a volume.
#   docker build -t bulwark .
#   docker run -d --name bulwark -p 8080:8080 -v bulwark-data:/var/lib/bulwark bulwark
#   docker logs bulwark     # first start: the generated admin key and admin password, once
# The package names match scripts/deps.sh (-dev packages here) and the binary's libraries
# (runtime stage; tests/packaging/install.sh checks them against the binary's NEEDED entries).

FROM debian:bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake pkg-config ca-certificates \
      libmicrohttpd-dev libjansson-dev libsodium-dev libsqlite3-dev libpq-dev zlib1g-dev libzip-dev \
      libhyperscan-dev libpcre2-dev libcurl4-openssl-dev libyaml-dev libtree-sitter-dev npm libgit2-dev libjemalloc-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -DCMAKE_BUILD_TYPE=RelWithDebInfo \
 && cmake --build /build -j "$(nproc)" --target bulwark \
 && DESTDIR=/out cmake --install /build --prefix /usr \
 && strip --strip-debug /out/usr/bin/bulwark

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
      libmicrohttpd12 libjansson4 libsodium23 libsqlite3-0 libpq5 zlib1g libzip4 \
      libhyperscan5 libpcre2-8-0 libcurl4 libyaml-0-2 libtree-sitter0 libgit2-1.5 libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/bulwark --shell /usr/sbin/nologin bulwark \
 && install -d -o bulwark -g bulwark -m 0700 /var/lib/bulwark
COPY --from=build /out/usr/bin/bulwark /usr/bin/bulwark
COPY --from=build /out/usr/share/doc/bulwark /usr/share/doc/bulwark
ENV BULWARK_LISTEN=0.0.0.0:8080 \
    BULWARK_DATA_DIR=/var/lib/bulwark
USER bulwark
WORKDIR /var/lib/bulwark
VOLUME ["/var/lib/bulwark"]
EXPOSE 8080
# /healthz over bash's /dev/tcp (slim has neither curl nor wget), on the port BULWARK_LISTEN names.
# With native TLS (BULWARK_TLS_CERT) this plain-HTTP probe fails: check from outside instead.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${BULWARK_LISTEN##*:} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/bulwark"]
CMD ["serve"]
