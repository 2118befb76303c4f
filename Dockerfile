# mlsys in a Debian 12 container, CPU build (docs/PACKAGING.md):
#   docker build --build-arg GIT_SHA=$(git rev-parse --short=12 HEAD) -t mlsys .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD/results:/work/results" mlsys simulate --out results/sim
# Stage 1 builds and packages the .deb with the repository's own scripts/setup; stage 2 installs
# only that package (apt resolves its Debian dependencies) and checks that the quickstart runs.
# Layers, for the build cache: the packages depend on scripts/setup alone, so an edit elsewhere in
# the sources reuses them and only rebuilds mlsys.
FROM debian:12 AS build
ENV DEBIAN_FRONTEND=noninteractive
COPY scripts/setup /src/scripts/setup
RUN bash /src/scripts/setup && rm -rf /var/lib/apt/lists/*
# Declared after the package layer: a new commit id invalidates only the build below.
ARG GIT_SHA=unknown
COPY . /src
WORKDIR /src
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMLSYS_WITH_CUDA=OFF -DMLSYS_BUILD_TESTS=OFF \
          -DMLSYS_BUILD_BENCH=OFF -DMLSYS_GIT_SHA=${GIT_SHA} \
 && cmake --build build -j "$(nproc)" \
 && cd build && cpack -G DEB

FROM debian:12
ENV DEBIAN_FRONTEND=noninteractive
COPY --from=build /src/build/mlsys_*.deb /tmp/
RUN apt-get update -qq \
 && apt-get install -y -qq /tmp/mlsys_*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/mlsys_*.deb \
 && useradd --create-home --user-group --uid 1000 mlsys \
 && install -d -m 1777 /work
# Not root: results written to a mounted folder belong to the user, not to root. The image's user
# is mlsys (uid 1000); `docker run --user "$(id -u):$(id -g)"` runs as the caller instead, which
# /work (writable by every uid, like /tmp) and a cache folder under it allow.
USER mlsys
ENV MLSYS_CACHE_DIR=/work/.cache/mlsys
WORKDIR /work
RUN mlsys version \
 && cd /tmp && mlsys-quickstart >/dev/null && rm -rf /tmp/results
ENTRYPOINT ["mlsys"]
CMD ["--help"]
